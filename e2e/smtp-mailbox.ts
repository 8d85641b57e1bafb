import { simpleParser } from 'mailparser';
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

/**
 * Reads a mail as a mail client would (mailparser): a Korean subject or body that arrives mangled fails the
 * spec, as it would look wrong in the recipient's inbox.
 */
export async function readMail(raw: string, to: string[]): Promise<ReceivedMail> {
  const mail = await simpleParser(raw);
  return { to, subject: mail.subject ?? '', text: mail.text ?? '', html: mail.html || '', raw };
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
      stream.on('error', (error) => callback(error));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((address) => address.address.toLowerCase());
        readMail(Buffer.concat(chunks).toString('utf8'), to).then((mail) => {
          mails.push(mail);
          callback();
        }, callback);
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
