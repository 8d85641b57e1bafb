import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const source = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < source.length; i += 1) {
    const hex = source.slice(i + 1, i + 3);
    if (source[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(source[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Every body part of a nodemailer message, decoded the way a mail client would. */
export function decodeMail(raw: string): { headers: string; text: string } {
  const split = /\r?\n\r?\n/.exec(raw);
  const headers = split ? raw.slice(0, split.index) : raw;
  const texts: string[] = [];
  const sections = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  for (const section of sections) {
    const gap = /\r?\n\r?\n/.exec(section);
    if (!gap) continue;
    const partHeaders = section.slice(0, gap.index);
    const body = section.slice(gap.index + gap[0].length);
    if (/content-transfer-encoding:\s*base64/i.test(partHeaders)) {
      texts.push(Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('utf8'));
    } else if (/content-transfer-encoding:\s*quoted-printable/i.test(partHeaders)) {
      texts.push(decodeQuotedPrintable(body));
    } else {
      texts.push(body);
    }
  }
  return { headers, text: texts.join('\n') };
}

/** Waits for the newest mail to `to` in DATA_DIR/mail and returns the first link matching `pathname`. */
export async function waitForMailLink(
  dataDir: string,
  to: string,
  pathname: string,
  timeoutMs = 20_000,
): Promise<string> {
  const dir = join(dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  const pattern = new RegExp(
    `https?://[^\\s"'<>]+${pathname.replace(/[/.]/g, '\\$&')}\\?token=[A-Za-z0-9_\\-%.~]+`,
  );
  while (Date.now() < deadline) {
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((file) => file.endsWith('.eml'));
    } catch {
      // The directory appears with the first mail.
    }
    const newestFirst = files
      .map((file) => ({ file, time: statSync(join(dir, file)).mtimeMs }))
      .sort((a, b) => b.time - a.time);
    for (const { file } of newestFirst) {
      const { headers, text } = decodeMail(readFileSync(join(dir, file), 'utf8'));
      if (!headers.toLowerCase().includes(to.toLowerCase())) continue;
      const match = pattern.exec(text);
      if (match) return match[0];
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`No mail to ${to} with a ${pathname} link within ${timeoutMs} ms`);
}
