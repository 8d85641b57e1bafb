import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, users } from '../../src/db/schema.ts';
import { createCompany } from '../fixtures.ts';
import {
  createTestApp,
  latestMail,
  mailsTo,
  STRONG_PASSWORD,
  solveCaptcha,
  TestClient,
  type TestContext,
  tokenFromMail,
} from '../helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const ATTACKER_PASSWORD = '공격자의-비밀번호-2026!';

async function confirmLink(email: string): Promise<string> {
  return tokenFromMail((await latestMail(ctx.database, email))!.text, '/register/confirm');
}

async function loginStatus(email: string, password: string): Promise<number> {
  const client = new TestClient(ctx.app);
  const response = await client.post('/api/v1/token/', {
    email,
    password,
    captcha: await solveCaptcha(ctx.app),
  });
  return response.statusCode;
}

describe('F6: account pre-hijacking', () => {
  it("F6: the owner's registration replaces an unconfirmed account's password and name; only the latest link confirms", async () => {
    const joinCompany = await createCompany(ctx, '공격자가 고른 회사', 'elsewhere.example');
    const [joinRow] = await ctx.database.db
      .select({ joinCode: companies.joinCode })
      .from(companies)
      .where(eq(companies.id, joinCompany));
    const victimCompany = await createCompany(ctx, '피해자의 회사', 'victim-corp.example');
    const email = 'victim@victim-corp.example';

    const attacker = new TestClient(ctx.app);
    const first = await attacker.post('/api/v1/user/', {
      email,
      password: ATTACKER_PASSWORD,
      name: '공격자',
      join_code: joinRow!.joinCode,
    });
    expect(first.statusCode).toBe(201);
    const attackerToken = await confirmLink(email);

    const victim = new TestClient(ctx.app);
    const second = await victim.post('/api/v1/user/', { email, password: STRONG_PASSWORD, name: '피해자' });
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    const victimToken = await confirmLink(email);
    expect(victimToken).not.toBe(attackerToken);

    // The first registration's link is dead; the latest one confirms.
    const stale = await victim.post('/api/v1/user/email/confirm-email', { token: attackerToken });
    expect(stale.json().code).toBe('INVALID_TOKEN');
    expect((await victim.post('/api/v1/user/email/confirm-email', { token: victimToken })).statusCode).toBe(
      200,
    );

    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, email));
    expect(row?.name).toBe('피해자');
    // The attacker's join code went with their registration: the account joins the address's own company.
    expect(row?.companyId).toBe(victimCompany);
    expect(await loginStatus(email, ATTACKER_PASSWORD)).toBe(400);
    expect(await loginStatus(email, STRONG_PASSWORD)).toBe(200);
  });

  it('F6: a confirmed account is never taken over by registering again', async () => {
    const email = 'f6-confirmed@example.com';
    const owner = new TestClient(ctx.app);
    await owner.post('/api/v1/user/', { email, password: STRONG_PASSWORD, name: '주인' });
    await owner.post('/api/v1/user/email/confirm-email', { token: await confirmLink(email) });
    const again = await new TestClient(ctx.app).post('/api/v1/user/', {
      email,
      password: ATTACKER_PASSWORD,
      name: '공격자',
    });
    expect(again.statusCode).toBe(201);
    expect((await latestMail(ctx.database, email))?.template).toBe('already_registered');
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, email));
    expect(row?.name).toBe('주인');
    expect(await loginStatus(email, ATTACKER_PASSWORD)).toBe(400);
    expect(await loginStatus(email, STRONG_PASSWORD)).toBe(200);
  });
});

describe('F8: throttles and join codes', () => {
  // Equal answer times are a wall-clock property a busy machine blurs: `node --import tsx
  // bench/equal-answer-times.ts` measures them in turns with enough samples. This test keeps what holds anywhere.
  it('F8: a wrong join code gets the same answer as a right one, and creates nothing', async () => {
    const companyId = await createCompany(ctx, '가입코드 회사', 'joincode.example');
    const [company] = await ctx.database.db
      .select({ joinCode: companies.joinCode })
      .from(companies)
      .where(eq(companies.id, companyId));
    const answers = new Set<string>();
    const register = async (side: 'right' | 'wrong', round: number) => {
      const client = new TestClient(ctx.app);
      await client.fetchCsrf();
      const response = await client.post('/api/v1/user/', {
        email: `f8-${side}-${round}@example.com`,
        password: STRONG_PASSWORD,
        name: '가입자',
        join_code: side === 'right' ? company!.joinCode : `WRONG-${round}`,
      });
      answers.add(`${response.statusCode} ${response.body}`);
    };
    for (let round = 0; round < 4; round += 1) {
      for (const side of ['right', 'wrong'] as const) await register(side, round);
    }
    expect([...answers]).toHaveLength(1);
    expect([...answers][0]).toMatch(/^201 /);

    // The wrong code is told to the address's owner by mail; no account exists for it.
    expect((await latestMail(ctx.database, 'f8-wrong-3@example.com'))?.template).toBe('join_code_unknown');
    expect(
      await ctx.database.db.select().from(users).where(eq(users.email, 'f8-wrong-3@example.com')),
    ).toEqual([]);
    expect((await latestMail(ctx.database, 'f8-right-3@example.com'))?.template).toBe('confirm_email');
  });

  it('F8: join-code attempts from one IP are throttled with 429 and Retry-After, right codes counted too', async () => {
    const guesser = new TestClient(ctx.app);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const response = await guesser.post('/api/v1/user/', {
        email: `guess-${i}@example.com`,
        password: STRONG_PASSWORD,
        name: '추측',
        join_code: `GUESS-${i}`,
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.json().code).toBe('RATE_LIMITED');
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(3600);
      }
    }
    expect(statuses).toEqual([...Array(10).fill(201), 429]);
    // Without a join code the same IP still registers.
    const plain = await guesser.post('/api/v1/user/', {
      email: 'guess-plain@example.com',
      password: STRONG_PASSWORD,
      name: '추측',
    });
    expect(plain.statusCode).toBe(201);
  });

  it('F8: at most 5 mails an hour to one address, for known and unknown addresses alike', async () => {
    await new TestClient(ctx.app).post('/api/v1/user/', {
      email: 'bombed@example.com',
      password: STRONG_PASSWORD,
      name: '수신자',
    });
    const sequences: Record<string, number[]> = {};
    for (const email of ['bombed@example.com', 'nobody-bombed@example.com']) {
      sequences[email] = [];
      for (let i = 0; i < 6; i += 1) {
        // A new IP each time: the per-address limit holds however many addresses the sender has.
        const client = new TestClient(ctx.app);
        const url = ['/api/v1/user/email/register', '/api/v1/user/password/send-reset-email'][i % 2]!;
        const response = await client.post(url, { email });
        sequences[email]!.push(response.statusCode);
        if (response.statusCode === 429) expect(response.headers['retry-after']).toBeDefined();
      }
    }
    // The registration above was the first of five for the known address.
    expect(sequences['bombed@example.com']).toEqual([202, 202, 202, 202, 429, 429]);
    expect(sequences['nobody-bombed@example.com']).toEqual([202, 202, 202, 202, 202, 429]);
    expect((await mailsTo(ctx.database, 'bombed@example.com')).length).toBeLessThanOrEqual(5);
    expect(await mailsTo(ctx.database, 'nobody-bombed@example.com')).toHaveLength(0);
  });

  it('F8: register, re-send and reset requests are throttled per IP', async () => {
    const limited = await createTestApp({ config: { ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '3' } });
    try {
      const client = new TestClient(limited.app);
      const statuses = [
        (
          await client.post('/api/v1/user/', {
            email: 'ip-1@example.com',
            password: STRONG_PASSWORD,
            name: '가',
          })
        ).statusCode,
        (await client.post('/api/v1/user/email/register', { email: 'ip-2@example.com' })).statusCode,
        (await client.post('/api/v1/user/password/send-reset-email', { email: 'ip-3@example.com' }))
          .statusCode,
        (await client.post('/api/v1/user/password/send-reset-email', { email: 'ip-4@example.com' }))
          .statusCode,
      ];
      expect(statuses).toEqual([201, 202, 202, 429]);
      const other = new TestClient(limited.app);
      expect(
        (await other.post('/api/v1/user/email/register', { email: 'ip-5@example.com' })).statusCode,
      ).toBe(202);
    } finally {
      await limited.close();
    }
  });
});
