import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { mailOutbox } from '../src/db/schema.ts';
import { enqueueMail } from '../src/mail/outbox.ts';
import { confirmEmailMail, resetPasswordMail } from '../src/mail/templates.ts';
import {
  describeSendError,
  type MailLogger,
  type MailTransport,
  retryDelaySeconds,
  startMailWorker,
  wakeMailWorkers,
} from '../src/mail/worker.ts';
import { countQueries, createTestDatabase, OUTBOX_CLAIM, testConfig } from './helpers.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';

/** A port nothing listens on: bound, read, released. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function captureLogger(): { logger: MailLogger; lines: unknown[][] } {
  const lines: unknown[][] = [];
  const record = (...args: unknown[]) => {
    lines.push(args);
  };
  return { logger: { info: record, warn: record, error: record } as unknown as MailLogger, lines };
}

/** A worker that sends through `transport` and runs only when asked (`runOnce`). */
function workerOver(transport: MailTransport) {
  return startMailWorker({
    database,
    config: testConfig(),
    logger: captureLogger().logger,
    transport,
    poll: false,
  });
}

async function row(database: Database, id: string) {
  const [found] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return found!;
}

async function makeDue(database: Database, id: string): Promise<void> {
  await database.query('UPDATE mail_outbox SET next_attempt_at = now() WHERE id = $1', [id]);
}

const TOKEN = 'tok-9f8e7d6c5b4a';
const CONFIRM_URL = `http://localhost/register/confirm?token=${TOKEN}`;

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.close();
});

beforeEach(async () => {
  await database.query('DELETE FROM mail_outbox');
});

describe('mail worker over SMTP', () => {
  it('delivers a queued Korean mail as a text + HTML message and marks it sent', async () => {
    const smtp = await startSmtpSink();
    const config = testConfig({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      PUBLIC_URL: 'https://ansim.example',
    });
    const worker = startMailWorker({ database, config, logger: captureLogger().logger, poll: false });
    try {
      const id = await enqueueMail(
        database.db,
        'confirm_email',
        'hong@corp.example',
        confirmEmailMail({ name: '홍길동', url: CONFIRM_URL }),
      );
      expect(await worker.runOnce()).toBe(1);

      expect(smtp.messages).toHaveLength(1);
      const [message] = smtp.messages;
      expect(message!.to).toEqual(['hong@corp.example']);
      // Read as a mail client reads it (mailparser): a Korean subject or body that arrives mangled fails here.
      const mail = await simpleParser(message!.raw);
      // Headers travel as 7-bit encoded words; decoded they must be the Korean subject exactly.
      expect(mail.headerLines.find((line) => line.key === 'subject')?.line).toMatch(/^subject: =\?UTF-8\?/i);
      expect(mail.messageId).toBe(`<${id}@ansim.example>`);
      expect(mail.subject).toBe('[안심신고] 이메일 주소를 인증해주세요');
      expect(mail.from?.text).toContain('안심신고');
      expect(mail.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
      expect(message!.raw).toMatch(/content-type: text\/plain; charset=utf-8/i);
      expect(mail.text).toContain('홍길동님, 안심신고에 가입해주셔서 감사합니다.');
      expect(mail.text).toContain(CONFIRM_URL);
      expect(mail.html).toContain('이메일 인증하기');

      const sent = await row(database, id);
      expect(sent.status).toBe('sent');
      expect(sent.sentAt).toBeInstanceOf(Date);
      expect(sent.attempts).toBe(1);
      expect(sent.lockedUntil).toBeNull();
      expect(await worker.runOnce()).toBe(0);
      expect(smtp.messages).toHaveLength(1);
    } finally {
      await worker.stop();
      await smtp.close();
    }
  });

  it('is woken at once after an enqueue instead of waiting for the next poll', async () => {
    const smtp = await startSmtpSink();
    const config = testConfig({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_POLL_MS: '3600000' });
    // The start-up run ends by arming the next poll an hour away; seeing that timer armed is the moment it is done.
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const worker = startMailWorker({ database, config, logger: captureLogger().logger });
    try {
      await vi.waitFor(() => expect(timers).toHaveBeenCalledWith(expect.any(Function), 3_600_000), {
        timeout: 30_000,
      });
      timers.mockRestore();
      await enqueueMail(
        database.db,
        'reset_password',
        'kim@corp.example',
        resetPasswordMail({ url: CONFIRM_URL }),
      );
      wakeMailWorkers();
      await vi.waitFor(() => expect(smtp.messages).toHaveLength(1), { timeout: 30_000 });
    } finally {
      timers.mockRestore();
      await worker.stop();
      await smtp.close();
    }
  });

  it('keeps a mail through an SMTP outage and delivers it exactly once when the server is back', async () => {
    const port = await closedPort();
    const config = testConfig({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_RETRY_BASE_SECONDS: '60' });
    const { logger, lines } = captureLogger();
    const worker = startMailWorker({ database, config, logger, poll: false });
    let smtp: SmtpSink | undefined;
    try {
      const id = await enqueueMail(
        database.db,
        'confirm_email',
        'park@corp.example',
        confirmEmailMail({ name: '박민수', url: CONFIRM_URL }),
      );
      const before = Date.now();
      expect(await worker.runOnce()).toBe(1);

      const deferred = await row(database, id);
      expect(deferred.status).toBe('pending');
      expect(deferred.attempts).toBe(1);
      expect(deferred.lockedUntil).toBeNull();
      expect(deferred.nextAttemptAt.getTime()).toBeGreaterThan(before + 55_000);
      expect(deferred.lastError).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
      // The stored and logged reason carries nothing of the mail.
      for (const text of [deferred.lastError!, JSON.stringify(lines)]) {
        expect(text).not.toContain('park@');
        expect(text).not.toContain(TOKEN);
        expect(text).not.toContain('박민수');
      }

      smtp = await startSmtpSink(port);
      // Not due yet: the backoff holds even though the server is back.
      expect(await worker.runOnce()).toBe(0);
      expect(smtp.messages).toHaveLength(0);

      await makeDue(database, id);
      expect(await worker.runOnce()).toBe(1);
      expect(await worker.runOnce()).toBe(0);
      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0]!.raw).toContain(`Message-ID: <${id}@localhost>`);
      const sent = await row(database, id);
      expect(sent.status).toBe('sent');
      expect(sent.attempts).toBe(2);
      expect(sent.lastError).toBeNull();
    } finally {
      await worker.stop();
      await smtp?.close();
    }
  });

  it('retries a mail whose worker died mid-send once the lease has run out, and not before', async () => {
    const smtp = await startSmtpSink();
    const config = testConfig({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    const worker = startMailWorker({ database, config, logger: captureLogger().logger, poll: false });
    try {
      const mail = resetPasswordMail({ url: CONFIRM_URL });
      const orphaned = await enqueueMail(database.db, 'reset_password', 'a@corp.example', mail);
      const leased = await enqueueMail(database.db, 'reset_password', 'b@corp.example', mail);
      await database.query(
        `UPDATE mail_outbox SET attempts = 1, locked_until = now() - interval '1 minute' WHERE id = $1`,
        [orphaned],
      );
      await database.query(
        `UPDATE mail_outbox SET attempts = 1, locked_until = now() + interval '5 minutes' WHERE id = $1`,
        [leased],
      );

      expect(await worker.runOnce()).toBe(1);
      expect(smtp.messages.map((m) => m.to)).toEqual([['a@corp.example']]);
      expect((await row(database, orphaned)).status).toBe('sent');
      expect((await row(database, orphaned)).attempts).toBe(2);
      const stillLeased = await row(database, leased);
      expect(stillLeased.status).toBe('pending');
      expect(stillLeased.attempts).toBe(1);
    } finally {
      await worker.stop();
      await smtp.close();
    }
  });

  it('gives up after MAIL_MAX_ATTEMPTS and marks the mail failed', async () => {
    const port = await closedPort();
    const config = testConfig({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_MAX_ATTEMPTS: '2' });
    const worker = startMailWorker({ database, config, logger: captureLogger().logger, poll: false });
    try {
      const id = await enqueueMail(
        database.db,
        'reset_password',
        'c@corp.example',
        resetPasswordMail({ url: CONFIRM_URL }),
      );
      await worker.runOnce();
      expect((await row(database, id)).status).toBe('pending');
      await makeDue(database, id);
      await worker.runOnce();
      const failed = await row(database, id);
      expect(failed.status).toBe('failed');
      expect(failed.attempts).toBe(2);
      expect(failed.lastError).toBeTruthy();
      await makeDue(database, id);
      expect(await worker.runOnce()).toBe(0);
    } finally {
      await worker.stop();
    }
  });

  it('never sends one mail twice when two workers run side by side', async () => {
    const smtp = await startSmtpSink();
    const config = testConfig({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    const workers = [0, 1].map(() =>
      startMailWorker({ database, config, logger: captureLogger().logger, poll: false }),
    );
    try {
      const ids: string[] = [];
      for (let i = 0; i < 8; i += 1) {
        ids.push(
          await enqueueMail(
            database.db,
            'reset_password',
            `u${i}@corp.example`,
            resetPasswordMail({ url: CONFIRM_URL }),
          ),
        );
      }
      const counts = await Promise.all(workers.map((worker) => worker.runOnce()));
      expect(counts[0]! + counts[1]!).toBe(8);
      const messageIds = await Promise.all(
        smtp.messages.map(async (m) => (await simpleParser(m.raw)).messageId),
      );
      expect(messageIds).toHaveLength(8);
      expect(new Set(messageIds)).toEqual(new Set(ids.map((id) => `<${id}@localhost>`)));
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await smtp.close();
    }
  });

  it('stop() waits for the send in flight and records it', async () => {
    let release!: () => void;
    let started!: () => void;
    const sendStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const transport: MailTransport = {
      deliver: () =>
        new Promise<void>((resolve) => {
          release = resolve;
          started();
        }),
      close: () => {},
    };
    const worker = workerOver(transport);
    const id = await enqueueMail(
      database.db,
      'reset_password',
      'd@corp.example',
      resetPasswordMail({ url: CONFIRM_URL }),
    );
    const run = worker.runOnce();
    await sendStarted;
    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    // A stop() that did not wait for the send would settle within microtasks; one macrotask later it must not have.
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(await run).toBe(1);
    expect((await row(database, id)).status).toBe('sent');
  });
});

describe('claims', () => {
  it('finds an empty outbox with one claim, and still sends a backlog five at a time', async () => {
    const { count: claims, restore } = countQueries(database, OUTBOX_CLAIM);
    let inFlight = 0;
    let mostInFlight = 0;
    const transport: MailTransport = {
      deliver: async () => {
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight -= 1;
      },
      close: () => {},
    };
    const worker = workerOver(transport);
    try {
      // What most polls and wakes find: nothing due. One statement, not one per sender.
      expect(await worker.runOnce()).toBe(0);
      expect(claims()).toBe(1);

      for (let i = 0; i < 12; i += 1) {
        await enqueueMail(
          database.db,
          'reset_password',
          `b${i}@corp.example`,
          resetPasswordMail({ url: CONFIRM_URL }),
        );
      }
      expect(await worker.runOnce()).toBe(12);
      expect(mostInFlight).toBe(5);
      const statuses = await database.query<{ status: string }>('SELECT status FROM mail_outbox');
      expect(statuses.map((mail) => mail.status)).toEqual(Array(12).fill('sent'));
    } finally {
      restore();
      await worker.stop();
    }
  });
});

describe('dev mail (no SMTP_URL)', () => {
  it('writes the message to DATA_DIR/mail/<id>.eml and logs no body or link', async () => {
    const config = testConfig();
    const { logger, lines } = captureLogger();
    const worker = startMailWorker({ database, config, logger, poll: false });
    try {
      const id = await enqueueMail(
        database.db,
        'confirm_email',
        'lee@corp.example',
        confirmEmailMail({ name: '이서연', url: CONFIRM_URL }),
      );
      expect(await worker.runOnce()).toBe(1);

      const mailDir = path.join(config.dataDir, 'mail');
      expect(fs.readdirSync(mailDir)).toEqual([`${id}.eml`]);
      const raw = fs.readFileSync(path.join(mailDir, `${id}.eml`), 'utf8');
      const mail = await simpleParser(raw);
      expect(mail.headerLines.find((line) => line.key === 'to')?.line).toBe('To: lee@corp.example');
      expect(mail.messageId).toBe(`<${id}@localhost>`);
      expect(mail.text).toContain('이서연님, 안심신고에 가입해주셔서 감사합니다.');
      expect(mail.text).toContain(CONFIRM_URL);
      expect(mail.html).toContain('<html lang="ko">');
      expect((await row(database, id)).status).toBe('sent');

      expect(lines).toHaveLength(1);
      const logged = JSON.stringify(lines);
      expect(logged).toContain('corp.example');
      expect(logged).toContain(`${id}.eml`);
      expect(logged).not.toContain('lee@');
      expect(logged).not.toContain(TOKEN);
      expect(logged).not.toContain('이서연');
    } finally {
      await worker.stop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});

describe('send errors and backoff', () => {
  it('keeps the reason short and strips addresses', () => {
    const error = Object.assign(new Error('Recipient <jane.doe@corp.example> rejected: mailbox full'), {
      code: 'EENVELOPE',
      responseCode: 552,
    });
    expect(describeSendError(error)).toBe('EENVELOPE 552 Recipient <<address>> rejected: mailbox full');
    expect(describeSendError(new Error('x'.repeat(1000))).length).toBeLessThanOrEqual(300);
  });

  it('doubles the delay per attempt and caps it', () => {
    expect(retryDelaySeconds(1, 30, 0)).toBe(30);
    expect(retryDelaySeconds(2, 30, 0)).toBe(60);
    expect(retryDelaySeconds(5, 30, 0)).toBe(480);
    expect(retryDelaySeconds(40, 30, 0)).toBe(6 * 3600);
    expect(retryDelaySeconds(1, 30, 1)).toBeCloseTo(33);
  });
});
