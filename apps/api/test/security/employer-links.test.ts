import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CASE_REFERENCE_PATTERN, caseReferencePrefix } from '@ansim/shared/case-reference';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { companies, receiptSessions, reports, sessions, users } from '../../src/db/schema.ts';
import { generateIntakeCode, INTAKE_CODE_BITS } from '../../src/domain/intake/intake-code.ts';
import { createReceiptSession } from '../../src/domain/reports/receipts.ts';
import { openJson } from '../../src/encryption/codec.ts';
import { hmacHex } from '../../src/lib/tokens.ts';
import { VISITOR_KEY_LIFETIME_MS } from '../../src/plugins/rate-limit.ts';
import { anonymousDraft, createCompany, createManager, reportBody } from '../fixtures.ts';
import {
  createTestApp,
  registerAndLogin,
  STRONG_PASSWORD,
  solveCaptcha,
  TestClient,
  type TestContext,
} from '../helpers.ts';

/**
 * The employer's smaller second-order channels (decision 0030, docs/threat-model.md): what the throttles, the
 * sessions, the stored form, the intake link and the case references would still tell a self-hosting employer
 * holding a database copy and the configuration, or an excluded handler reading their own list.
 */

let ctx: TestContext;
let companyId: string;
let member: TestClient;
let admin: TestClient;

const HOUR_MS = 3600_000;

async function intakeCodeOf(id: string): Promise<string> {
  const [row] = await ctx.database.db
    .select({ code: companies.intakeCode })
    .from(companies)
    .where(eq(companies.id, id));
  return row!.code;
}

async function rateLimitRows() {
  return ctx.database.query<{ key: string; window_start: Date; expires_at: Date }>(
    'SELECT key, window_start, expires_at FROM rate_limits',
  );
}

async function submitAnonymous(lastEdit: string | null = null): Promise<string> {
  const draft = await anonymousDraft(ctx, member);
  const submitted = await draft.post('/api/v1/report/', { ...reportBody('anonym'), last_edit: lastEdit });
  expect(submitted.statusCode).toBe(201);
  return submitted.json().id as string;
}

beforeAll(async () => {
  ctx = await createTestApp();
  companyId = await createCompany(ctx, '링크 주식회사', 'links.example');
  member = await registerAndLogin(ctx, 'member@links.example');
  admin = await createManager(ctx, 'admin@links.example', { role: 'admin', name: '최관리' });
}, 120_000);
afterAll(() => ctx?.close());

describe('employer: the anonymous visitors throttles', () => {
  it('keys intake and receipt counters under a process key, never SECRET_KEY, by the hour', async () => {
    const visitor = new TestClient(ctx.app);
    const code = await intakeCodeOf(companyId);
    expect((await visitor.get(`/api/v1/intake/${code}`)).statusCode).toBe(200);
    await visitor.post('/api/v1/intake/', { code, captcha: await solveCaptcha(ctx.app) });
    await visitor.post('/api/v1/receipt/', { receipt: '0000 0000 0000 0000' });

    const rows = await rateLimitRows();
    const visitorRows = rows.filter((row) => /^(intake-lookup|intake-new|receipt-ip):/.test(row.key));
    expect(new Set(visitorRows.map((row) => row.key.split(':')[0]))).toEqual(
      new Set(['intake-lookup', 'intake-new', 'receipt-ip']),
    );
    // Whoever holds the configuration cannot recompute a visitor's key from a guessed address.
    const fromSecret = hmacHex(ctx.config.SECRET_KEY, visitor.ip);
    for (const row of rows) {
      expect(row.key).not.toContain(fromSecret);
      expect(row.key).not.toContain(visitor.ip);
    }
    // Hour windows, each ending (and gone) with its hour: no row says the minute of a visit.
    for (const row of visitorRows) {
      expect(row.window_start.getTime() % HOUR_MS).toBe(0);
      expect(row.expires_at.getTime() - row.window_start.getTime()).toBe(HOUR_MS);
    }
  });

  it('deletes counters whose window has ended at the next visitor hit', async () => {
    await ctx.database.query(
      `INSERT INTO rate_limits (key, window_start, count, expires_at)
       VALUES ('intake-lookup:ended', date_trunc('hour', now()) - interval '1 hour', 3, date_trunc('hour', now()))`,
    );
    const code = await intakeCodeOf(companyId);
    expect((await new TestClient(ctx.app).get(`/api/v1/intake/${code}`)).statusCode).toBe(200);
    expect((await rateLimitRows()).map((row) => row.key)).not.toContain('intake-lookup:ended');
  });

  it('replaces the visitor key within a day', async () => {
    expect(VISITOR_KEY_LIFETIME_MS).toBeLessThanOrEqual(24 * HOUR_MS);
    const code = await intakeCodeOf(companyId);
    const visitor = new TestClient(ctx.app);
    const keysOf = async () =>
      new Set(
        (await rateLimitRows()).filter((row) => row.key.startsWith('intake-lookup:')).map((row) => row.key),
      );
    await visitor.get(`/api/v1/intake/${code}`);
    const before = await keysOf();
    const realNow = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(realNow + VISITOR_KEY_LIFETIME_MS + 1000);
    try {
      await visitor.get(`/api/v1/intake/${code}`);
    } finally {
      clock.mockRestore();
    }
    const after = await keysOf();
    // The same address a day later counts under a key the earlier row cannot be joined to.
    expect([...after].filter((key) => !before.has(key))).toHaveLength(1);
  });

  it('keeps the login per-address limit under SECRET_KEY, shared by every process', async () => {
    const visitor = new TestClient(ctx.app);
    const answer = await visitor.post('/api/v1/token/', {
      email: 'nobody@links.example',
      password: STRONG_PASSWORD,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(answer.statusCode).toBe(400);
    const keys = (await rateLimitRows()).map((row) => row.key);
    expect(keys).toContain(`login-ip:${hmacHex(ctx.config.SECRET_KEY, visitor.ip)}`);
  });
});

describe('employer: times kept of an anonymous reporter', () => {
  it('stores no last_edit for an anonymous report and shows none to managers', async () => {
    const edited = '2026-11-02T21:47:13.000Z';
    const id = await submitAnonymous(edited);
    const [row] = await ctx.database.db.select().from(reports).where(eq(reports.id, id));
    const stored = await openJson<{ last_edit: string | null }>(ctx.database, 'reports.form', id, row!.form);
    expect(stored.last_edit).toBeNull();
    const view = await admin.get(`/api/v1/manager/report/${id}`);
    expect(view.statusCode).toBe(200);
    expect(view.json().form.last_edit).toBeNull();
    expect(view.body).not.toContain('21:47');
  });

  it('writes nothing to the member session when an anonymous draft starts', async () => {
    const old = new Date(Date.now() - 10 * 60_000);
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, 'member@links.example'));
    await ctx.database.db.update(sessions).set({ lastSeenAt: old }).where(eq(sessions.userId, user!.id));
    const started = await member.post('/api/v1/intake/', {});
    expect(started.statusCode).toBe(201);
    const rows = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user!.id));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.lastSeenAt.getTime()).toBe(old.getTime());
  });

  it('gives receipt sessions an expiry that does not give the visit away', async () => {
    const id = await submitAnonymous();
    const opened = Date.now();
    const expiries: number[] = [];
    for (let i = 0; i < 8; i++) expiries.push((await createReceiptSession(ctx.database.db, id)).expires);
    const stored = await ctx.database.db
      .select()
      .from(receiptSessions)
      .where(eq(receiptSessions.reportId, id));
    for (const row of stored) {
      // Whole seconds, at least two hours, at most four.
      expect(row.expiresAt.getMilliseconds()).toBe(0);
      expect(row.expiresAt.getTime() - opened).toBeGreaterThanOrEqual(2 * HOUR_MS - 1000);
      expect(row.expiresAt.getTime() - opened).toBeLessThanOrEqual(4 * HOUR_MS + 1000);
    }
    // Eight sessions opened in the same instant: their expiries spread over the jitter, so none minus two hours
    // is the time of its visit. A fixed life gives them all the same second.
    expect(Math.max(...expiries) - Math.min(...expiries)).toBeGreaterThan(60);
  });
});

describe('employer: the intake link', () => {
  it('carries at least 64 random bits, from the API and from the database default', async () => {
    expect(INTAKE_CODE_BITS).toBeGreaterThanOrEqual(64);
    expect(generateIntakeCode()).toMatch(/^[0-9a-hjkmnp-tv-z]{16}$/);
    const code = await intakeCodeOf(companyId);
    expect(code).toMatch(/^[0-9a-f]{24}$/);
  });

  it('lets the admin rotate it: the old link stops working, the log records it', async () => {
    const manager = await createManager(ctx, 'manager@links.example', { role: 'manager' });
    expect((await manager.post('/api/v1/company/intake-code/rotate')).statusCode).toBe(403);
    const old = await intakeCodeOf(companyId);
    const rotated = await admin.post('/api/v1/company/intake-code/rotate');
    expect(rotated.statusCode).toBe(200);
    const { intake_code: fresh, intake_url: url } = rotated.json();
    expect(fresh).not.toBe(old);
    expect(url.endsWith(`/c/${fresh}`)).toBe(true);
    expect(await intakeCodeOf(companyId)).toBe(fresh);
    expect((await new TestClient(ctx.app).get(`/api/v1/intake/${old}`)).statusCode).toBe(404);
    expect((await new TestClient(ctx.app).get(`/api/v1/intake/${fresh}`)).statusCode).toBe(200);
    const stale = await new TestClient(ctx.app).post('/api/v1/intake/', {
      code: old,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(stale.statusCode).toBe(404);
    const audit = (await admin.get('/api/v1/company/audit?action=company.intake_code')).json();
    expect(audit.results).toHaveLength(1);
    expect(JSON.stringify(audit.results)).not.toContain(fresh);
    expect((await admin.get('/api/v1/company/settings')).json().intake_code).toBe(fresh);
  });
});

describe('employer: case references', () => {
  it('gives each case a random reference that counts nothing', async () => {
    const ids = [await submitAnonymous(), await submitAnonymous(), await submitAnonymous()];
    const numbers = await Promise.all(
      ids.map(async (id) => (await admin.get(`/api/v1/manager/report/${id}`)).json().case_number as string),
    );
    const year = new Date().getFullYear();
    for (const number of numbers) {
      expect(number).toMatch(CASE_REFERENCE_PATTERN);
      expect(number.startsWith(`${year}-`)).toBe(true);
    }
    expect(new Set(numbers).size).toBe(3);
    // Neither a counter nor a counter's table is left to read.
    const counters = await ctx.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'case_counters'",
    );
    expect(counters[0]!.n).toBe(0);
    // Found by the start of its reference, typed in lower case, with O for 0 and L for 1 as from paper.
    const [typedYear, code] = numbers[0]!.split('-') as [string, string];
    const typed = `${typedYear}-${code.slice(0, 3).toLowerCase().replace(/0/g, 'o').replace(/1/g, 'l')}`;
    const found = (await admin.get(`/api/v1/manager/report/?q=${encodeURIComponent(typed)}`)).json();
    expect(found.results.map((row: { id: string }) => row.id)).toContain(ids[0]);
  });

  it('reads a typed prefix as the stored form', () => {
    expect(caseReferencePrefix('2026')).toBe('2026');
    expect(caseReferencePrefix('2026-k7m')).toBe('2026-K7M');
    expect(caseReferencePrefix(' 2026-OIL ')).toBe('2026-011');
    expect(caseReferencePrefix('2026-U')).toBeNull();
    expect(caseReferencePrefix('김민지')).toBeNull();
  });

  it('moves existing sequential numbers to random references in the migration', async () => {
    const ids = [await submitAnonymous(), await submitAnonymous()];
    await ctx.database.query("UPDATE reports SET case_number = '2025-0001' WHERE id = $1", [ids[0]]);
    await ctx.database.query("UPDATE reports SET case_number = '2025-0002' WHERE id = $1", [ids[1]]);
    const migration = readFileSync(
      path.join(import.meta.dirname, '../../src/db/migrations/0017_anonymous_references.sql'),
      'utf8',
    );
    const dataStatement = migration.split('--> statement-breakpoint').at(-1)!;
    await ctx.database.query(dataStatement);
    const rows = await ctx.database.db.select({ n: reports.caseNumber }).from(reports);
    for (const { n } of rows) expect(n).toMatch(CASE_REFERENCE_PATTERN);
    const moved = rows.map(({ n }) => n).filter((n) => n.startsWith('2025-'));
    expect(moved).toHaveLength(2);
  });
});
