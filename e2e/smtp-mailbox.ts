import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server for a spec: the API under test delivers over the network exactly as it would to a
 * relay, and the spec reads what arrived. Plain SMTP on 127.0.0.1 (no STARTTLS, no auth required).
 */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

interface MimePart {
  headers: Map<string, string>;
  contentType: string;
  body: string;
  parts: MimePart[];
}

// Just enough of RFC 2045–2047 to read what nodemailer writes (the approach of apps/api/test/mime.ts): a
// Korean subject or body that arrives mangled fails the spec, as it would look wrong in a mail client.
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

function decodeHeader(value: string): string {
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

function parseMime(raw: string): MimePart {
  const split = /\r?\n\r?\n/.exec(raw);
  const headerBlock = split ? raw.slice(0, split.index) : raw;
  const content = split ? raw.slice(split.index + split[0].length) : '';
  const headers = parseHeaders(headerBlock);
  const typeHeader = headers.get('content-type') ?? 'text/plain';
  const contentType = typeHeader.split(';')[0]!.trim().toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(typeHeader)?.[1];
  if (contentType.startsWith('multipart/') && boundary) {
    const parts = content
      .split(`--${boundary}`)
      .slice(1)
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

function findPart(part: MimePart, contentType: string): MimePart | undefined {
  if (part.contentType === contentType) return part;
  for (const child of part.parts) {
    const found = findPart(child, contentType);
    if (found) return found;
  }
  return undefined;
}

export function readMail(raw: string, to: string[]): ReceivedMail {
  const root = parseMime(raw);
  return {
    to,
    subject: decodeHeader(root.headers.get('subject') ?? ''),
    text: findPart(root, 'text/plain')?.body ?? '',
    html: findPart(root, 'text/html')?.body ?? '',
    raw,
  };
}

export interface SmtpMailbox {
  port: number;
  mails: ReceivedMail[];
  /** Waits for a mail to `to` that `match` accepts; the newest matching one. */
  waitFor(to: string, match?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpMailbox(): Promise<SmtpMailbox> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((address) => address.address.toLowerCase());
        mails.push(readMail(Buffer.concat(chunks).toString('utf8'), to));
        callback();
      });
    },
  });
  // A connection reset by a stopping server must not throw out of the test run.
  server.on('error', () => {});
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.server.address();
      if (typeof address === 'object' && address) resolve(address.port);
      else reject(new Error('SMTP server has no port'));
    });
  });
  return {
    port,
    mails,
    async waitFor(to, match = () => true, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = mails.filter((mail) => mail.to.includes(to.toLowerCase()) && match(mail)).at(-1);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`No mail to ${to} within ${timeoutMs} ms (received: ${mails.length})`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text to `pathname` carrying a `token` parameter. */
export function linkIn(mail: ReceivedMail, pathname: string): string {
  const pattern = new RegExp(
    `https?://[^\\s"'<>]+${pathname.replace(/[/.]/g, '\\$&')}\\?token=[A-Za-z0-9_\\-%.~]+`,
  );
  const match = pattern.exec(mail.text);
  if (!match) throw new Error(`No ${pathname} link in the mail "${mail.subject}"`);
  return match[0];
}
