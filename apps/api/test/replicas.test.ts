import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '@ansim/shared/constants';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { mfaPasskeys, users } from '../src/db/schema.ts';
import { createCompany } from '../src/domain/companies/admin.ts';
import { createSession } from '../src/domain/sessions/sessions.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { hmacHex } from '../src/lib/tokens.ts';
import { enqueueMail } from '../src/mail/outbox.ts';
import { reportBody } from './fixtures.ts';
import {
  createTestDatabase,
  databaseUrl,
  enrolledMfa,
  freshMfaCode,
  keepInOneWindow,
  STRONG_PASSWORD,
  TEST_DB,
  testConfig,
} from './helpers.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';

/**
 * Two real API processes (apps/api/src/server.ts) on one PostgreSQL database, as docker-compose runs them: what
 * one replica does, the other sees. Started once for the file; PostgreSQL only.
 */
const runs = TEST_DB === 'postgres' && Boolean(process.env.TEST_DATABASE_URL);
if (!process.env.TEST_DATABASE_URL)
  console.info(
    'replicas.test.ts: skipped: two API replicas need a PostgreSQL server (set TEST_DATABASE_URL)',
  );

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SECRET_KEY = testConfig().SECRET_KEY!;
const CSRF = 'replica-csrf-token-replica-csrf-token-0123';
const DOMAIN = 'replicas.example';

interface Replica {
  child: ChildProcess;
  base: string;
  dataDir: string;
  output: string;
}

async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as import('node:net').AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function startReplica(url: string, smtpPort: number): Promise<Replica> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-replica-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      SECRET_KEY,
      ALTCHA_MAX_NUMBER: '2000',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_POLL_MS: '200',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent-web-dist',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const replica: Replica = { child, base, dataDir, output: '' };
  const keep = (chunk: Buffer) => {
    replica.output = (replica.output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  // A busy machine has taken minutes to start the server from its TypeScript sources.
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`replica exited early:\n${replica.output}`);
    const ok = await fetch(`${base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return replica;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`replica not healthy:\n${replica.output}`);
}

async function stopReplica(replica: Replica | undefined): Promise<void> {
  if (!replica) return;
  if (replica.child.exitCode === null && replica.child.signalCode === null) {
    const exited = new Promise((resolve) => replica.child.once('exit', resolve));
    replica.child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(replica.dataDir, { recursive: true, force: true });
}

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer, checked field by field by each test.
  body: any;
  text: string;
  headers: Headers;
}

/** A browser over real HTTP: keeps its cookies, sends the CSRF pair, talks to whichever replica it is told. */
class Browser {
  readonly cookies = new Map<string, string>([[CSRF_COOKIE, CSRF]]);
  constructor(readonly headers: Record<string, string> = {}) {}

  async call(
    base: string,
    method: string,
    pathname: string,
    json?: unknown,
    extra: Record<string, string> = {},
  ): Promise<Answer> {
    const response = await fetch(`${base}${pathname}`, {
      method,
      headers: {
        ...this.headers,
        ...extra,
        [CSRF_HEADER]: CSRF,
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
      signal: AbortSignal.timeout(30_000),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === '' || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body, text, headers: response.headers };
  }
}

async function captchaFrom(base: string): Promise<string> {
  const challenge = await (await fetch(`${base}/api/v1/captcha/challenge`)).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

let database: Database;
let smtp: SmtpSink;
let a: Replica | undefined;
let b: Replica | undefined;
let companyId: string;
let passwordHash: string;

/** An account of the company with a live session, made by the domain function login uses. */
async function account(
  email: string,
  role: 'member' | 'manager' | 'admin' = 'member',
): Promise<{ id: string; browser: Browser }> {
  const [user] = await database.db
    .insert(users)
    .values({ email, passwordHash, name: '복제시험', companyId, role, emailConfirmedAt: new Date() })
    .returning({ id: users.id });
  // Handlers need a second factor; a placeholder passkey opens their routes to this session.
  if (role !== 'member')
    await database.db
      .insert(mfaPasskeys)
      .values({ userId: user!.id, credentialId: `replica-${user!.id}`, publicKey: 'none', name: 'replica' });
  const session = await createSession(database, user!.id, testConfig());
  const browser = new Browser();
  browser.cookies.set(SESSION_COOKIE, session.id);
  return { id: user!.id, browser };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

describe.runIf(runs)('two API replicas on one PostgreSQL database', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startSmtpSink();
    passwordHash = await hashPassword(STRONG_PASSWORD);
    companyId = (await createCompany(database, { name: '복제 주식회사', domain: DOMAIN })).id;
    [a, b] = await Promise.all([
      startReplica(databaseUrl(database)!, smtp.port),
      startReplica(databaseUrl(database)!, smtp.port),
    ]);
  }, 600_000);

  afterAll(async () => {
    await Promise.all([stopReplica(a), stopReplica(b)]);
    await smtp?.close();
    await database?.close();
  }, 60_000);

  it("streams to a manager on replica A the reporter's message written through replica B", async () => {
    const manager = await account(`stream-manager@${DOMAIN}`, 'manager');
    const reporter = await account(`stream-reporter@${DOMAIN}`);
    const submitted = await reporter.browser.call(b!.base, 'POST', '/api/v1/report/', reportBody('formal'));
    expect(submitted.status).toBe(201);
    const id = submitted.body.id as string;

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 60_000);
    const stream = await fetch(`${a!.base}/api/v1/manager/report/${id}/events`, {
      headers: {
        accept: 'text/event-stream',
        cookie: `${SESSION_COOKIE}=${manager.browser.cookies.get(SESSION_COOKIE)}`,
      },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const nextEvent = async (): Promise<string> => {
      while (true) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const piece = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!piece.startsWith(':')) return piece;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    };
    try {
      expect(await nextEvent()).not.toContain('message-through-replica-b');
      const written = await reporter.browser.call(b!.base, 'POST', `/api/v1/report/${id}/messages`, {
        body: 'message-through-replica-b',
      });
      expect(written.status).toBe(201);
      // The next pushes until one carries the message; the abort above bounds the wait.
      let event = await nextEvent();
      while (!event.includes('message-through-replica-b')) event = await nextEvent();
      expect(event).toContain('message-through-replica-b');
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  });

  it('holds the per-address login limit across both replicas', async () => {
    const key = `login-ip:${hmacHex(SECRET_KEY, '127.0.0.1')}`;
    const browser = new Browser();
    const statuses: number[] = [];
    const limit = testConfig().LOGIN_LIMIT_PER_IP_PER_MINUTE;
    try {
      for (let n = 0; n < limit + 2; n += 1) {
        await keepInOneWindow(database, key, 60);
        const answer = await browser.call(n % 2 === 0 ? a!.base : b!.base, 'POST', '/api/v1/token/', {
          email: `nobody${n}@${DOMAIN}`,
          password: 'wrong-password',
          captcha: 'not-a-solution',
        });
        statuses.push(answer.status);
      }
    } finally {
      // Later tests of this file log in from the same address.
      await database.query("DELETE FROM rate_limits WHERE key LIKE 'login-ip:%'");
    }
    // Each replica alone saw only half the attempts: the refusals come from the shared count.
    expect(statuses.slice(0, limit).every((status) => status === 400)).toBe(true);
    expect(statuses.slice(limit)).toEqual([429, 429]);
  });

  it('delivers each outbox mail exactly once with both replicas sending', async () => {
    const count = 40;
    for (let n = 0; n < count; n += 1)
      await enqueueMail(database.db, 'replica_test', `to${n}@mail.${DOMAIN}`, {
        subject: `replica-mail-${n}`,
        text: `replica-mail-body-${n}-end`,
        html: `<p>replica-mail-body-${n}-end</p>`,
      });
    await until('every mail sent', async () => {
      const [row] = await database.query<{ left: number }>(
        "SELECT count(*)::int AS left FROM mail_outbox WHERE template = 'replica_test' AND sent_at IS NULL",
      );
      return row!.left === 0 ? true : undefined;
    });
    for (let n = 0; n < count; n += 1) {
      const copies = smtp.messages.filter((message) => message.raw.includes(`replica-mail-body-${n}-end`));
      expect(copies, `mail ${n}`).toHaveLength(1);
    }
  });

  it('refuses on replica B the next request of a manager whose role was taken away through replica A', async () => {
    const admin = await account(`admin@${DOMAIN}`, 'admin');
    const manager = await account(`demoted@${DOMAIN}`, 'manager');
    expect((await manager.browser.call(b!.base, 'GET', '/api/v1/manager/report/')).status).toBe(200);
    const changed = await admin.browser.call(a!.base, 'PATCH', `/api/v1/company/people/${manager.id}`, {
      role: 'member',
    });
    expect(changed.status).toBe(200);
    expect([401, 403]).toContain(
      (await manager.browser.call(b!.base, 'GET', '/api/v1/manager/report/')).status,
    );
  });

  it('opens on one replica a receipt session and an MFA challenge that work on the other', async () => {
    // The receipt: an anonymous report through B, its receipt opened on a fresh device at A, read at B.
    const member = await account(`anonymous@${DOMAIN}`);
    const intake = await member.browser.call(a!.base, 'POST', '/api/v1/intake/', {});
    expect(intake.status).toBe(201);
    const draft = new Browser({ 'x-intake-token': intake.body.token });
    const submitted = await draft.call(b!.base, 'POST', '/api/v1/report/', reportBody('anonym'));
    expect(submitted.status).toBe(201);
    const device = new Browser();
    const opened = await device.call(a!.base, 'POST', '/api/v1/receipt/', {
      receipt: submitted.body.receipt,
      captcha: await captchaFrom(a!.base),
    });
    expect(opened.status).toBe(200);
    expect((await device.call(b!.base, 'GET', '/api/v1/receipt/')).body.report_id).toBe(submitted.body.id);
    expect((await device.call(b!.base, 'GET', `/api/v1/report/${submitted.body.id}`)).status).toBe(200);

    // The second factor: TOTP enrolled through B, the password given at A, the code answered at B.
    const email = `totp@${DOMAIN}`;
    const holder = await account(email);
    const started = await holder.browser.call(b!.base, 'POST', '/api/v1/user/mfa/totp/');
    expect(started.status).toBe(200);
    enrolledMfa.set(email, { secret: started.body.secret, recoveryCodes: [] });
    const confirmed = await holder.browser.call(b!.base, 'POST', '/api/v1/user/mfa/totp/confirm', {
      code: freshMfaCode(email),
      password: STRONG_PASSWORD,
    });
    expect(confirmed.status).toBe(200);
    enrolledMfa.get(email)!.recoveryCodes = confirmed.body.recovery_codes;
    const login = new Browser();
    const first = await login.call(a!.base, 'POST', '/api/v1/token/', {
      email,
      password: STRONG_PASSWORD,
      captcha: await captchaFrom(b!.base),
    });
    expect(first.status).toBe(200);
    expect(first.body.mfa_required).toBe(true);
    const second = await login.call(b!.base, 'POST', '/api/v1/token/mfa', { code: freshMfaCode(email) });
    expect(second.status).toBe(200);
    expect((await login.call(a!.base, 'GET', '/api/v1/token/')).status).toBe(200);
  });

  it('loses and duplicates none of 200 submissions when one replica is killed -9 among them', async () => {
    const reporters = await Promise.all(
      Array.from({ length: 20 }, (_, n) => account(`kill-reporter${n}@${DOMAIN}`)),
    );
    const killAt = 40 + Math.floor(Math.random() * 80);
    let acknowledged = 0;
    const unexpected: string[] = [];
    const acknowledgedIds: string[] = [];
    // Ten submissions of each reporter one after another, the reporters at once, taking the replicas in turn;
    // a submission without an answer (the replica died under it) is sent again to the other replica with the
    // same Idempotency-Key, as the web client does.
    const submitAll = reporters.map(async (reporter, r) => {
      let turn = r;
      for (let n = 0; n < 10; n += 1) {
        const key = `kill-${r}-${n}`;
        for (let attempt = 0; ; attempt += 1) {
          if (attempt > 50) throw new Error(`${key}: no answer after 50 attempts`);
          const replica = turn++ % 2 === 0 ? a! : b!;
          const answer = await reporter.browser
            .call(replica.base, 'POST', '/api/v1/report/', reportBody('brief'), { 'idempotency-key': key })
            .catch(() => undefined);
          if (answer?.status === 201 || answer?.status === 200) {
            acknowledgedIds.push(answer.body.id);
            acknowledged += 1;
            if (acknowledged === killAt) a!.child.kill('SIGKILL');
            break;
          }
          if (answer && answer.status !== 503 && answer.status !== 409)
            unexpected.push(`${key}: ${answer.status} ${answer.text.slice(0, 200)}`);
        }
      }
    });
    await Promise.all(submitAll);
    expect(a!.child.signalCode).toBe('SIGKILL');
    expect(unexpected).toEqual([]);
    expect(acknowledged).toBe(200);
    // None lost: every acknowledged report is there. None duplicated: exactly 200 reports, 200 distinct ids.
    expect(new Set(acknowledgedIds).size).toBe(200);
    const [stored] = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM reports r JOIN users u ON u.id = r.reporter_id
        WHERE u.email LIKE 'kill-reporter%'`,
    );
    expect(stored!.n).toBe(200);
    const found = await database.query<{ id: string }>('SELECT id FROM reports WHERE id = ANY($1::uuid[])', [
      acknowledgedIds,
    ]);
    expect(found).toHaveLength(200);
  }, 240_000);
});
