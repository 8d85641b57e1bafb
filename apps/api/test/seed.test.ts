import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { companies, companyDomains, users } from '../src/db/schema.ts';
import { createCompany } from '../src/domain/companies/admin.ts';
import { isCommonPassword, verifyPassword } from '../src/lib/passwords.ts';
import { DEMO_COMPANY_NAME, formatDemoSeed, seedDemoData, shouldSeedDemo } from '../src/seed.ts';
import { createTestApp, createTestDatabase, solveCaptcha, TestClient, testConfig } from './helpers.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.close();
});

async function countRows() {
  return {
    companies: (await database.db.select().from(companies)).length,
    users: (await database.db.select().from(users)).length,
  };
}

describe('demo seed', () => {
  it('is never made for a configured PostgreSQL or in production', async () => {
    expect(shouldSeedDemo(testConfig({ DATABASE_URL: 'postgres://app@db.internal:5432/ansim' }))).toBe(false);
    expect(
      await seedDemoData(database, testConfig({ DATABASE_URL: 'postgres://app@db.internal:5432/ansim' })),
    ).toBeNull();
    const production = testConfig({ NODE_ENV: 'production', ENCRYPTION_KEY: 'e'.repeat(64) });
    expect(shouldSeedDemo(production)).toBe(false);
    expect(await seedDemoData(database, production)).toBeNull();
    expect(await countRows()).toEqual({ companies: 0, users: 0 });
  });

  it('is not made when a company already exists', async () => {
    const company = await createCompany(database, { name: '기존 회사', domain: 'existing.example' });
    expect(await seedDemoData(database, testConfig())).toBeNull();
    expect(await countRows()).toEqual({ companies: 1, users: 0 });
    await database.db.delete(companies).where(eq(companies.id, company.id));
  });

  it('creates the demo company with a confirmed manager and member on an empty database, once', async () => {
    const seed = await seedDemoData(database, testConfig());
    expect(seed).not.toBeNull();
    const [company] = await database.db.select().from(companies);
    expect(company).toMatchObject({ id: seed!.companyId, name: DEMO_COMPANY_NAME, joinCode: seed!.joinCode });
    expect(seed!.joinCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const domains = await database.db.select().from(companyDomains);
    expect(domains.map((d) => [d.domain, d.companyId])).toEqual([['demo.example', company!.id]]);

    const rows = await database.db.select().from(users).orderBy(users.email);
    expect(rows.map((u) => [u.email, u.name, u.role, u.companyId])).toEqual([
      ['admin@demo.example', '박관리', 'admin', company!.id],
      ['manager@demo.example', '김담당', 'manager', company!.id],
      ['member@demo.example', '이직원', 'member', company!.id],
      // The platform's operator belongs to no company.
      ['operator@ansim.example', '안심운영', 'operator', null],
    ]);
    for (const user of rows) {
      expect(user.emailConfirmedAt).toBeInstanceOf(Date);
      const account = seed!.accounts.find((a) => a.email === user.email)!;
      expect(account.password.length).toBeGreaterThanOrEqual(16);
      expect(isCommonPassword(account.password)).toBe(false);
      expect(user.passwordHash).toMatch(/^\$argon2id\$/);
      expect(await verifyPassword(user.passwordHash, account.password)).toBe(true);
    }
    expect(new Set(seed!.accounts.map((a) => a.password)).size).toBe(seed!.accounts.length);

    const printed = formatDemoSeed(seed!);
    for (const account of seed!.accounts) {
      expect(printed).toContain(account.email);
      expect(printed).toContain(account.password);
    }
    expect(printed).toContain(`/c/${company!.intakeCode}`);
    expect(seed!.intakeCode).toBe(company!.intakeCode);
    expect(printed).toContain('데모 계정');
    expect(printed).toContain('Demo accounts');

    expect(await seedDemoData(database, testConfig())).toBeNull();
    expect(await countRows()).toEqual({ companies: 1, users: 4 });

    // The printed credentials are real: the manager logs in and is the demo company's manager.
    const ctx = await createTestApp({ database });
    try {
      const client = new TestClient(ctx.app);
      const manager = seed!.accounts.find((a) => a.role === 'manager')!;
      const login = await client.post('/api/v1/token/', {
        email: manager.email,
        password: manager.password,
        captcha: await solveCaptcha(ctx.app),
      });
      expect(login.statusCode).toBe(200);
      const me = await client.get('/api/v1/user/');
      expect(me.json()).toMatchObject({
        email: 'manager@demo.example',
        role: 'manager',
        company: { id: company!.id, name: DEMO_COMPANY_NAME },
        mfa: { totp: false, passkeys: 0, required: true },
      });
      // The demo manager enrols a second factor on first login like anyone else; until then no case opens.
      const cases = await client.get('/api/v1/manager/report/');
      expect(cases.statusCode).toBe(403);
      expect(cases.json().code).toBe('MFA_ENROLLMENT_REQUIRED');
    } finally {
      await ctx.close();
    }
  });
});
