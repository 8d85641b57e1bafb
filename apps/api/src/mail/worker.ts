import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { BaseLogger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { openText } from '../encryption/codec.ts';
import { ANONYMOUS_NOTICE_TEMPLATE } from './templates.ts';

export type MailLogger = Pick<BaseLogger, 'info' | 'warn' | 'error'>;

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attempts: number;
}

/** Delivers one mail; throws when it was not accepted, so the worker retries it. */
export interface MailTransport {
  deliver(mail: OutboxMail): Promise<void>;
  close(): void;
}

export interface MailWorker {
  /** Claims and delivers every due mail; resolves with how many were attempted (sent or rescheduled). */
  runOnce(): Promise<number>;
  /** Looks for due mail now instead of at the next poll. */
  wake(): void;
  /** Stops polling and waits for a send in flight, so a shutdown does not cut a mail in half. */
  stop(): Promise<void>;
}

export interface MailWorkerOptions {
  database: Database;
  config: Config;
  logger: MailLogger;
  transport?: MailTransport;
  /** Poll every MAIL_POLL_MS (default). Off, the worker only runs when asked (runOnce, wake). */
  poll?: boolean;
}

/**
 * A claimed mail is leased, not locked in a transaction: a send can take far longer than a transaction should
 * stay open. A worker that dies mid-send simply lets the lease run out and another run retries the mail, so
 * delivery is at-least-once. The lease is short and renewed while the send lasts: a killed process holds its
 * mail back for at most LEASE_SECONDS (not for the slowest send the SMTP timeouts allow), and a slow send
 * never loses its mail to another worker.
 */
const LEASE_SECONDS = 30;
const LEASE_RENEW_MS = 10_000;
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };
/** One run never loops forever when mail arrives faster than it leaves; the next poll continues. */
const MAX_MAILS_PER_RUN = 100;
/**
 * Sends in flight at once per process, over as many pooled SMTP connections. One at a time, a new connection
 * per mail, a backlog (every notice queued while SMTP or the process was down) drained at ~12 mails a second.
 */
const SEND_CONCURRENCY = 5;
const MAX_BACKOFF_SECONDS = 6 * 3600;
const MAX_ERROR_LENGTH = 300;

/**
 * Claims one due mail. One per claim keeps every lease short and fair between processes; SKIP LOCKED lets
 * several API processes claim at once without waiting on each other. Counting the attempt at claim time means
 * a mail that crashes its worker every time still reaches MAIL_MAX_ATTEMPTS.
 */
const CLAIM_SQL = `
  UPDATE mail_outbox
     SET locked_until = now() + make_interval(secs => $1), attempts = attempts + 1
   WHERE id IN (
     SELECT id FROM mail_outbox
      WHERE status = 'pending' AND next_attempt_at <= now()
        AND (locked_until IS NULL OR locked_until < now())
      ORDER BY next_attempt_at
      LIMIT $2
        FOR UPDATE SKIP LOCKED)
  RETURNING id, "to", subject, text, html, attempts`;

export async function openOutboxMail<T extends Pick<OutboxMail, 'id' | 'to' | 'subject' | 'text' | 'html'>>(
  database: Database,
  mail: T,
): Promise<T> {
  return {
    ...mail,
    to: await openText(database, 'mail_outbox.to', mail.id, mail.to),
    subject: await openText(database, 'mail_outbox.subject', mail.id, mail.subject),
    text: await openText(database, 'mail_outbox.text', mail.id, mail.text),
    html: await openText(database, 'mail_outbox.html', mail.id, mail.html),
  };
}

/** The header lets a receiver recognise the duplicate an at-least-once retry may produce. */
export function messageIdFor(config: Pick<Config, 'PUBLIC_URL'>, outboxId: string): string {
  return `<${outboxId}@${new URL(config.PUBLIC_URL).hostname}>`;
}

/** Exponential backoff from MAIL_RETRY_BASE_SECONDS, capped, with jitter so a recovered relay is not stormed. */
export function retryDelaySeconds(attempts: number, baseSeconds: number, random = Math.random()): number {
  const exponential = Math.min(baseSeconds * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_SECONDS);
  return exponential * (1 + random * 0.1);
}

/**
 * The reason a send failed, short and without addresses: SMTP replies often quote the recipient, and the
 * error is both stored and logged.
 */
export function describeSendError(error: unknown): string {
  const err = error as { code?: unknown; responseCode?: unknown; message?: unknown };
  const parts = [
    typeof err.code === 'string' ? err.code : undefined,
    typeof err.responseCode === 'number' ? String(err.responseCode) : undefined,
    typeof err.message === 'string' ? err.message.replace(/\s+/g, ' ').trim() : String(error),
  ].filter(Boolean);
  const text = parts.join(' ').replace(/[^\s<>"'()[\],;:]+@[^\s<>"'()[\],;:]+/g, '<address>');
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}

function mailOptions(config: Config, mail: OutboxMail) {
  return {
    from: config.MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: messageIdFor(config, mail.id),
  };
}

export function createSmtpTransport(config: Config & { SMTP_URL: string }): MailTransport {
  const transporter = nodemailer.createTransport({
    url: config.SMTP_URL,
    pool: true,
    maxConnections: SEND_CONCURRENCY,
    ...SMTP_TIMEOUTS,
  });
  return {
    async deliver(mail) {
      await transporter.sendMail(mailOptions(config, mail));
    },
    close: () => transporter.close(),
  };
}

/**
 * Without SMTP every mail becomes `DATA_DIR/mail/<id>.eml`, the exact RFC 822 message SMTP would have carried,
 * so a developer opens it in any mail client. The log line names only the recipient's domain and the subject:
 * the body holds one-time links, and links are credentials.
 */
export function createDevMailTransport(config: Config, logger: MailLogger): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const mailDir = path.join(config.dataDir, 'mail');
  return {
    async deliver(mail) {
      const info = await composer.sendMail(mailOptions(config, mail));
      await fs.mkdir(mailDir, { recursive: true });
      const file = path.join(mailDir, `${mail.id}.eml`);
      // Written aside and renamed: a reader (a test, a developer's mail client) never sees half a message.
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await fs.writeFile(temporary, info.message as Buffer);
        await fs.rename(temporary, file);
      } catch (error) {
        await fs.rm(temporary, { force: true });
        throw error;
      }
      const toDomain = mail.to.slice(mail.to.lastIndexOf('@') + 1);
      logger.info({ mailId: mail.id, toDomain, subject: mail.subject, file }, 'dev mail written');
    },
    close: () => composer.close(),
  };
}

export function createMailTransport(config: Config, logger: MailLogger): MailTransport {
  return config.SMTP_URL
    ? createSmtpTransport(config as Config & { SMTP_URL: string })
    : createDevMailTransport(config, logger);
}

const runningWorkers = new Set<MailWorker>();

/**
 * Wakes every mail worker of this process. Call it after the transaction that enqueued a mail has committed
 * (before, the worker could not see the row yet and the mail would wait for the next poll).
 */
export function wakeMailWorkers(): void {
  for (const worker of runningWorkers) worker.wake();
}

export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const { database, config, logger } = options;
  const transport = options.transport ?? createMailTransport(config, logger);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let isTicking = false;
  let wakeRequested = false;
  // Runs are chained: runOnce and the poll never send side by side in one process, and stop() awaits the tail.
  let chain: Promise<unknown> = Promise.resolve();

  async function markSent(id: string): Promise<void> {
    // A notice to an anonymous reporter's private address is not kept once it left: the row holds the address.
    await database.query(
      `DELETE FROM mail_outbox WHERE id = $1 AND template = '${ANONYMOUS_NOTICE_TEMPLATE}'`,
      [id],
    );
    await database.query(
      `UPDATE mail_outbox SET status = 'sent', sent_at = now(), locked_until = NULL, last_error = NULL
        WHERE id = $1`,
      [id],
    );
  }

  async function renewLease(id: string): Promise<void> {
    await database.query(
      `UPDATE mail_outbox SET locked_until = now() + make_interval(secs => $2)
        WHERE id = $1 AND status = 'pending'`,
      [id, LEASE_SECONDS],
    );
  }

  /** Sends while renewing the lease; returns only once no renewal is left to overwrite what is marked next. */
  async function deliverLeased(mail: OutboxMail): Promise<void> {
    let renewing: Promise<void> = Promise.resolve();
    const renewal = setInterval(() => {
      renewing = renewLease(mail.id).catch(() => {});
    }, LEASE_RENEW_MS);
    try {
      await transport.deliver(mail);
    } finally {
      clearInterval(renewal);
      await renewing;
    }
  }

  async function markFailedAttempt(mail: OutboxMail, error: unknown): Promise<void> {
    const reason = describeSendError(error);
    const isFinal = mail.attempts >= config.MAIL_MAX_ATTEMPTS;
    const delay = retryDelaySeconds(mail.attempts, config.MAIL_RETRY_BASE_SECONDS);
    await database.query(
      `UPDATE mail_outbox
          SET status = $2, last_error = $3, locked_until = NULL,
              next_attempt_at = now() + make_interval(secs => $4)
        WHERE id = $1`,
      [mail.id, isFinal ? 'failed' : 'pending', reason, delay],
    );
    const fields = { mailId: mail.id, attempts: mail.attempts, error: reason };
    if (isFinal) logger.error(fields, 'mail failed for good after the last attempt');
    else logger.warn({ ...fields, retryInSeconds: Math.round(delay) }, 'mail not sent; will retry');
  }

  async function deliverDue(): Promise<number> {
    let attempted = 0;
    let isDrained = false;
    const senders: Promise<void>[] = [];
    const sender = async () => {
      while (!stopped && !isDrained && attempted < MAX_MAILS_PER_RUN) {
        const [mail] = await database.query<OutboxMail>(CLAIM_SQL, [LEASE_SECONDS, 1]);
        if (!mail) {
          isDrained = true;
          return;
        }
        attempted += 1;
        // The others start once there is mail: an empty outbox, which is what most polls and wakes find, costs
        // one claim, not one per sender (five statements and five of the pool's connections every time).
        if (senders.length === 1) {
          for (let more = 1; more < SEND_CONCURRENCY; more++) senders.push(sender());
        }
        try {
          // Sealed in the outbox (outbox.ts); opened only for the send itself.
          Object.assign(mail, await openOutboxMail(database, mail));
          await deliverLeased(mail);
        } catch (error) {
          await markFailedAttempt(mail, error);
          continue;
        }
        await markSent(mail.id);
      }
    };
    senders.push(sender());
    // The first sender starts the others before it ends, so once it has settled the list is complete.
    await Promise.allSettled([senders[0]]);
    // Settled, not all: a run (and so stop()) ends only once no sender has a mail in flight.
    const outcomes = await Promise.allSettled(senders);
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failure) throw failure.reason;
    return attempted;
  }

  function runOnce(): Promise<number> {
    const run = chain.then(() => (stopped ? 0 : deliverDue()));
    chain = run.catch(() => {});
    return run;
  }

  function schedule(delayMs: number): void {
    if (stopped || options.poll === false) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delayMs);
    // The HTTP server keeps the process alive; a pending poll alone must not.
    timer.unref();
  }

  async function tick(): Promise<void> {
    if (isTicking) {
      wakeRequested = true;
      return;
    }
    isTicking = true;
    wakeRequested = false;
    try {
      const attempted = await runOnce();
      // A full run means more mail is waiting: continue at once rather than after a poll interval.
      if (attempted >= MAX_MAILS_PER_RUN) wakeRequested = true;
    } catch (error) {
      logger.error({ error: describeSendError(error) }, 'mail worker run failed');
    } finally {
      isTicking = false;
      schedule(wakeRequested ? 0 : config.MAIL_POLL_MS);
    }
  }

  const worker: MailWorker = {
    runOnce,
    wake() {
      if (stopped) return;
      if (isTicking) wakeRequested = true;
      else if (options.poll === false) void tick();
      else schedule(0);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      runningWorkers.delete(worker);
      await chain;
      transport.close();
    },
  };
  runningWorkers.add(worker);
  schedule(0);
  return worker;
}
