/**
 * Just enough of RFC 2045–2047 to read what nodemailer writes: unfolded headers with encoded words, nested
 * multiparts, base64 and quoted-printable bodies in UTF-8. Tests read mails with it the way a mail client
 * would, so a Korean subject or body that arrives mangled fails the test.
 */
export interface MimePart {
  headers: Map<string, string>;
  contentType: string;
  body: string;
  parts: MimePart[];
}

function decodeQuotedPrintable(text: string, isHeader = false): Buffer {
  const source = isHeader ? text.replace(/_/g, ' ') : text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < source.length; i += 1) {
    const hex = source.slice(i + 1, i + 3);
    if (source[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(source[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** Decodes `=?UTF-8?B?…?=` and `=?UTF-8?Q?…?=` words; whitespace between two encoded words is dropped. */
export function decodeHeader(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BQ]\?[^?]*\?=)\s+(?==\?)/gi, '$1')
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_, _charset: string, encoding: string, text: string) =>
      (encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : decodeQuotedPrintable(text, true)
      ).toString('utf8'),
    );
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

export function parseMime(raw: string): MimePart {
  const split = /\r?\n\r?\n/.exec(raw);
  const headerBlock = split ? raw.slice(0, split.index) : raw;
  const content = split ? raw.slice(split.index + split[0].length) : '';
  const headers = parseHeaders(headerBlock);
  const typeHeader = headers.get('content-type') ?? 'text/plain';
  const contentType = typeHeader.split(';')[0]!.trim().toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(typeHeader)?.[1];
  if (contentType.startsWith('multipart/') && boundary) {
    const sections = content.split(`--${boundary}`).slice(1);
    const parts = sections
      .filter((section) => !section.startsWith('--'))
      .map((section) => parseMime(section.replace(/^\r?\n/, '')));
    return { headers, contentType, body: '', parts };
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const bytes =
    encoding === 'base64'
      ? Buffer.from(content.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(content)
        : Buffer.from(content, 'utf8');
  return { headers, contentType, body: bytes.toString('utf8'), parts: [] };
}

/** The first part of a content type, searched depth-first. */
export function findPart(part: MimePart, contentType: string): MimePart | undefined {
  if (part.contentType === contentType) return part;
  for (const child of part.parts) {
    const found = findPart(child, contentType);
    if (found) return found;
  }
  return undefined;
}
