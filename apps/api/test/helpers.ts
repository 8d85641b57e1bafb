import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { CSRF_COOKIE, CSRF_HEADER, SECURE_CSRF_COOKIE } from '@ansim/shared/constants';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { asc } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import * as OTPAuth from 'otpauth';
import pg from 'pg';
import { buildApp, loggerOptions } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { mailOutbox } from '../src/db/schema.ts';
import { attachKeyring } from '../src/encryption/keyring.ts';
import { hmacHex } from '../src/lib/tokens.ts';
import { openOutboxMail } from '../src/mail/worker.ts';

export const TEST_DB = (process.env.TEST_DB ?? 'pglite') as 'pglite' | 'postgres';

const databaseUrls = new WeakMap<Database, string>();

/** The connection URL of a PostgreSQL test database (for `pg_dump`); undefined on PGlite. */
export function databaseUrl(database: Database): string | undefined {
  return databaseUrls.get(database);
}

/**
 * A fresh database for one test file: an in-memory PGlite, or a new database on the PostgreSQL server of
 * TEST_DATABASE_URL (dropped again on close), so test files can run in parallel.
 */
export async function createTestDatabase(): Promise<Database> {
  const database = await openTestDatabase();
  // The key testConfig() derives from its SECRET_KEY, so an app built on this database keeps this keyring.
  attachKeyring(database, testConfig().encryptionKey!);
  return database;
}

async function openTestDatabase(): Promise<Database> {
  if (TEST_DB === 'pglite') return openDatabase({ kind: 'pglite' });
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `ansim_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), max: 5 });
  databaseUrls.set(database, url.toString());
  const close = database.close;
  database.close = async () => {
    await close();
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  };
  return database;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: 'http://localhost',
    DATA_DIR: `/tmp/ansim-test-${randomBytes(4).toString('hex')}`,
    SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
    ALTCHA_MAX_NUMBER: '2000',
    LOG_LEVEL: 'silent',
    // API tests do not depend on a web build being present; the web-serving test points this at its own.
    WEB_DIST: '/nonexistent-web-dist',
    ...overrides,
  });
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/** Collects every log line the app writes, for tests that search the logs for what must not be there. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.lines.push(chunk.toString());
    callback();
  }

  get text(): string {
    return this.lines.join('');
  }
}

export async function createTestApp(
  options: { config?: Record<string, string>; database?: Database; logs?: LogCapture } = {},
): Promise<TestContext> {
  const database = options.database ?? (await createTestDatabase());
  const config = testConfig(options.config);
  // The production logger options, so a test of the logs sees what a deployment would write.
  const logger = options.logs
    ? ({ ...(loggerOptions(config) as object), stream: options.logs } as never)
    : undefined;
  const app = await buildApp({ config, database, logger });
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}

let nextClientNumber = 1;

/** Every client gets its own private address, so per-IP limits of one test don't hit another. */
function nextClientIp(): string {
  const n = nextClientNumber++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** A browser-like client: keeps cookies, sends the CSRF header, comes from its own IP. */
export class TestClient {
  readonly cookies = new Map<string, string>();

  /** `headers` go with every request, e.g. an invitee's `X-Invitation-Token`. */
  constructor(
    readonly app: FastifyInstance,
    readonly ip = nextClientIp(),
    readonly headers: Record<string, string> = {},
  ) {}

  async request(options: InjectOptions & { json?: unknown }): Promise<LightMyRequestResponse> {
    const method = (options.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {
      ...this.headers,
      ...(options.headers as Record<string, string>),
    };
    if (!['GET', 'HEAD', 'OPTIONS'].includes(method) && !this.csrfToken) await this.fetchCsrf();
    const csrf = this.csrfToken;
    if (csrf && !(CSRF_HEADER in headers)) headers[CSRF_HEADER] = csrf;
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const { json, ...rest } = options;
    const response = await this.app.inject({
      ...rest,
      method: method as InjectOptions['method'],
      headers,
      remoteAddress: this.ip,
      ...(json !== undefined ? { payload: json as object } : {}),
    });
    for (const cookie of response.cookies as {
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }[]) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() < Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  /** The CSRF cookie's value: `__Host-csrftoken` when the app runs under https, else `csrftoken`. */
  get csrfToken(): string | undefined {
    return this.cookies.get(SECURE_CSRF_COOKIE) ?? this.cookies.get(CSRF_COOKIE);
  }

  async fetchCsrf(): Promise<void> {
    await this.request({ method: 'GET', url: '/api/csrf' });
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request({ method: 'GET', url, headers });
  }

  post(url: string, json?: unknown, headers?: Record<string, string>) {
    return this.request({ method: 'POST', url, json, headers });
  }

  delete(url: string, headers?: Record<string, string>) {
    return this.request({ method: 'DELETE', url, headers });
  }
}

/** Solves a real ALTCHA challenge from the server, as the browser widget would. */
/**
 * Rate limits count in fixed windows that start at PostgreSQL's now() rounded down, so a burst that happens to
 * run across a window's end is split between two windows and a limit test would flake. Called before each
 * request of a burst, this gives the current and the next window of `key` the burst's count so far: wherever
 * that request lands, it sees every earlier one, as if the whole burst fell in one window — no waiting for a
 * fresh window. Keys are the limiter's own (`login-ip:<hmac of the address>`, …); see `rateLimitKey`.
 */
export async function keepInOneWindow(database: Database, key: string, windowSeconds: number): Promise<void> {
  await database.query(
    `WITH bounds AS (
       SELECT to_timestamp(floor(extract(epoch from now()) / $2) * $2) AS current_start
     ), so_far AS (
       SELECT max(count) AS n FROM rate_limits, bounds
        WHERE key = $1 AND window_start IN (current_start - make_interval(secs => $2), current_start)
     )
     INSERT INTO rate_limits (key, window_start, count, expires_at)
     SELECT $1, starts.window_start, so_far.n, starts.window_start + make_interval(secs => $2 * 2)
       FROM so_far, bounds,
            LATERAL (VALUES (current_start), (current_start + make_interval(secs => $2))) AS starts(window_start)
      WHERE so_far.n IS NOT NULL
     ON CONFLICT (key, window_start) DO UPDATE SET count = GREATEST(rate_limits.count, excluded.count)`,
    [key, windowSeconds],
  );
}

/** The limiter's key for a value (an address, an e-mail, a user id), as the login and MFA code make it. */
export function rateLimitKey(ctx: TestContext, prefix: string, value: string): string {
  return `${prefix}:${hmacHex(ctx.config.SECRET_KEY, value)}`;
}

export async function solveCaptcha(app: FastifyInstance): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/api/v1/captcha/challenge' });
  const challenge = response.json();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('captcha not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

export async function latestMail(database: Database, to: string) {
  return (await mailsTo(database, to)).at(-1);
}

/** Outbox rows to an address, oldest first, opened: they are sealed, so no query can match the address. */
export async function mailsTo(database: Database, to: string) {
  const rows = await database.db.select().from(mailOutbox).orderBy(asc(mailOutbox.createdAt));
  const opened = await Promise.all(rows.map((row) => openOutboxMail(database, row)));
  return opened.filter((row) => row.to === to.toLowerCase());
}

/**
 * Counts the statements sent through `database.query` whose text matches `pattern`, until `restore`: how a test
 * sees that a read was spared, or that the mail worker never looked at the outbox.
 */
export function countQueries(
  database: Database,
  pattern: RegExp,
): { count: () => number; restore: () => void } {
  let count = 0;
  const query = database.query;
  database.query = ((text: string, ...rest: unknown[]) => {
    if (pattern.test(text)) count += 1;
    return (query as (...args: unknown[]) => Promise<unknown[]>).call(database, text, ...rest);
  }) as Database['query'];
  return {
    count: () => count,
    restore: () => {
      database.query = query;
    },
  };
}

/** The mail worker's claim on the outbox (worker.ts CLAIM_SQL). */
export const OUTBOX_CLAIM = /^\s*UPDATE mail_outbox\s+SET locked_until/;

/** The token of the first link in a mail's text with the given path. */
export function tokenFromMail(text: string, path: string): string {
  const match = new RegExp(`${path.replace(/\//g, '\\/')}\\?token=([^\\s&]+)`).exec(text);
  if (!match?.[1]) throw new Error(`no ${path} link in mail`);
  return decodeURIComponent(match[1]);
}

export const STRONG_PASSWORD = '안전한-비밀번호-2026!';

/** Registers, confirms through the mailed link and logs in; returns the logged-in client. */
export async function registerAndLogin(
  ctx: TestContext,
  email: string,
  options: { ip?: string; name?: string; joinCode?: string } = {},
): Promise<TestClient> {
  const client = new TestClient(ctx.app, options.ip);
  const created = await client.post('/api/v1/user/', {
    email,
    password: STRONG_PASSWORD,
    name: options.name ?? '테스트 사용자',
    ...(options.joinCode ? { join_code: options.joinCode } : {}),
  });
  if (created.statusCode !== 201) throw new Error(`register failed: ${created.body}`);
  const mail = await latestMail(ctx.database, email);
  const token = tokenFromMail(mail!.text, '/register/confirm');
  const confirmed = await client.post('/api/v1/user/email/confirm-email', { token });
  if (confirmed.statusCode !== 200) throw new Error(`confirm failed: ${confirmed.body}`);
  const login = await client.post('/api/v1/token/', {
    email,
    password: STRONG_PASSWORD,
    captcha: await solveCaptcha(ctx.app),
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return client;
}

/** What a test keeps of an account's second factor, so it can log in again as a user would. */
export interface TestMfa {
  secret: string;
  recoveryCodes: string[];
}

/** Second factors enrolled by tests, by lower-cased e-mail. */
export const enrolledMfa = new Map<string, TestMfa>();
const lastTotpStep = new Map<string, number>();

export function totpCodeAt(secret: string, step: number): string {
  return OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: step * 30_000 });
}

/**
 * A code the server has not accepted yet: codes are single use per 30-second step, and the server accepts the
 * current step and the next. When both are used up, a recovery code stands in, as it would for a person.
 */
export function freshMfaCode(email: string): string {
  const mfa = enrolledMfa.get(email.toLowerCase());
  if (!mfa) throw new Error(`${email} has no second factor enrolled by the tests`);
  const now = Math.floor(Date.now() / 30_000);
  const step = Math.max(now, (lastTotpStep.get(mfa.secret) ?? 0) + 1);
  if (step <= now + 1) {
    lastTotpStep.set(mfa.secret, step);
    return totpCodeAt(mfa.secret, step);
  }
  const recovery = mfa.recoveryCodes.shift();
  if (!recovery) throw new Error(`${email}: no TOTP step nor recovery code left`);
  return recovery;
}

/** Enrols TOTP for the logged-in client through the API, as the account page does. */
export async function enrolTotp(client: TestClient, email: string): Promise<TestMfa> {
  const started = await client.post('/api/v1/user/mfa/totp/');
  if (started.statusCode !== 200) throw new Error(`TOTP start failed: ${started.body}`);
  const { secret } = started.json() as { secret: string };
  const mfa: TestMfa = { secret, recoveryCodes: [] };
  enrolledMfa.set(email.toLowerCase(), mfa);
  const confirmed = await client.post('/api/v1/user/mfa/totp/confirm', {
    code: freshMfaCode(email),
    password: STRONG_PASSWORD,
  });
  if (confirmed.statusCode !== 200) throw new Error(`TOTP confirm failed: ${confirmed.body}`);
  mfa.recoveryCodes = (confirmed.json() as { recovery_codes: string[] }).recovery_codes;
  return mfa;
}

/**
 * Logs in with the password, and with a second factor when the server asks for one. Returns the last
 * response: 200 `{expires}` on success.
 */
export async function logIn(
  ctx: TestContext,
  client: TestClient,
  email: string,
  password = STRONG_PASSWORD,
): Promise<LightMyRequestResponse> {
  const first = await client.post('/api/v1/token/', {
    email,
    password,
    captcha: await solveCaptcha(ctx.app),
  });
  if (first.statusCode !== 200 || !(first.json() as { mfa_required?: boolean }).mfa_required) return first;
  return client.post('/api/v1/token/mfa', { code: freshMfaCode(email) });
}

export interface RegisteredRoute {
  method: string;
  url: string;
}

/**
 * Every route the app has registered, read from `printRoutes()`, so a test over "every route" cannot miss one
 * added later. HEAD routes Fastify adds for each GET are left out.
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line.trimEnd());
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const segment = match[2]!;
    stack.length = depth;
    stack.push(segment.startsWith('/') ? segment : `/${segment}`);
    const url = stack.join('');
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') routes.push({ method, url });
    }
  }
  return routes;
}

/** Every row of every table as text (the migration bookkeeping included), for searches of data at rest. */
export async function dumpDatabase(database: Database): Promise<string> {
  const tables = await database.query<{ table_schema: string; table_name: string }>(
    `SELECT table_schema, table_name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const parts: string[] = [];
  for (const { table_schema, table_name } of tables) {
    const rows = await database.query<{ row: string }>(
      `SELECT row_to_json(t)::text AS row FROM "${table_schema}"."${table_name}" t`,
    );
    parts.push(`${table_schema}.${table_name}`, ...rows.map((row) => row.row));
  }
  return parts.join('\n');
}

/** Every regular file below `dir` (none when it does not exist). */
export function listFilesRecursive(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}
