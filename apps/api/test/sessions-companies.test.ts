import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, companyDomains, sessions, users } from '../src/db/schema.ts';
import { sha256Hex } from '../src/lib/tokens.ts';
import {
  createTestApp,
  createTestDatabase,
  latestMail,
  registerAndLogin,
  STRONG_PASSWORD,
  solveCaptcha,
  TestClient,
  type TestContext,
} from './helpers.ts';

let ctx: TestContext;
let acmeId: string;

beforeAll(async () => {
  ctx = await createTestApp({ config: { SESSION_IDLE_SECONDS: '600', SESSION_ABSOLUTE_SECONDS: '3600' } });
  const [acme] = await ctx.database.db
    .insert(companies)
    .values({ name: '에이크미 주식회사', joinCode: 'ACME-JOIN-7Q2' })
    .returning();
  acmeId = acme!.id;
  await ctx.database.db.insert(companyDomains).values({ domain: 'acme.example', companyId: acmeId });
});
afterAll(() => ctx.close());

async function sessionRow(client: TestClient) {
  const [row] = await ctx.database.db
    .select()
    .from(sessions)
    .where(eq(sessions.idHash, sha256Hex(client.cookies.get('sessionid')!)));
  return row!;
}

describe('session lifetimes', () => {
  it('reports the idle limit as expiry and slides it on use', async () => {
    // Bracketed by the clock before the login and after the request (the idle window starts at the login or
    // a later use), not by a margin a busy machine can overrun.
    const asked = Date.now() / 1000;
    const client = await registerAndLogin(ctx, 'idle-slide@example.com');
    const { expires } = (await client.get('/api/v1/token/')).json();
    const answered = Date.now() / 1000;
    expect(expires).toBeGreaterThanOrEqual(Math.floor(asked) + 600 - 1);
    expect(expires).toBeLessThanOrEqual(Math.ceil(answered) + 600);
    // Pretend the last request was five minutes ago: the next one slides the idle window forward.
    const row = await sessionRow(client);
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 300_000) })
      .where(eq(sessions.idHash, row.idHash));
    const slid = Date.now();
    expect((await client.get('/api/v1/token/')).statusCode).toBe(200);
    expect((await sessionRow(client)).lastSeenAt.getTime()).toBeGreaterThanOrEqual(slid - 1000);
  });

  it('ends a session idle for longer than the idle limit', async () => {
    const client = await registerAndLogin(ctx, 'idle@example.com');
    const row = await sessionRow(client);
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 601_000) })
      .where(eq(sessions.idHash, row.idHash));
    expect((await client.get('/api/v1/token/')).statusCode).toBe(401);
    expect(await ctx.database.db.select().from(sessions).where(eq(sessions.idHash, row.idHash))).toHaveLength(
      0,
    );
  });

  it('ends a session at its absolute limit even while in use', async () => {
    const client = await registerAndLogin(ctx, 'absolute@example.com');
    const row = await sessionRow(client);
    await ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000), lastSeenAt: new Date() })
      .where(eq(sessions.idHash, row.idHash));
    expect((await client.get('/api/v1/user/')).statusCode).toBe(401);
  });

  it('never reports an expiry past the absolute limit', async () => {
    const client = await registerAndLogin(ctx, 'near-end@example.com');
    const row = await sessionRow(client);
    const end = new Date(Date.now() + 120_000);
    await ctx.database.db.update(sessions).set({ expiresAt: end }).where(eq(sessions.idHash, row.idHash));
    const { expires } = (await client.get('/api/v1/token/')).json();
    expect(expires).toBe(Math.floor(end.getTime() / 1000));
  });

  it('ignores a garbage or over-long session cookie', async () => {
    for (const sessionid of ['garbage', 'x'.repeat(5000)]) {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/token/', cookies: { sessionid } });
      expect(response.statusCode).toBe(401);
    }
  });
});

describe('companies at confirmation', () => {
  it('places a user by the verified domain of the confirmed address', async () => {
    const client = await registerAndLogin(ctx, 'Employee@ACME.example');
    const me = (await client.get('/api/v1/user/')).json();
    expect(me.company).toEqual({ id: acmeId, name: '에이크미 주식회사' });
    expect(me.role).toBe('member');
  });

  it('places a user by the join code given at registration', async () => {
    const client = await registerAndLogin(ctx, 'contractor@gmail.example', { joinCode: 'ACME-JOIN-7Q2' });
    expect((await client.get('/api/v1/user/')).json().company?.id).toBe(acmeId);
  });

  // F8: a wrong code is answered like any registration (codes cannot be guessed from the answers) and told
  // to the address by mail.
  it('answers an unknown join code like any registration, mails the address and creates nothing', async () => {
    const client = new TestClient(ctx.app);
    const response = await client.post('/api/v1/user/', {
      email: 'wrongcode@example.com',
      password: STRONG_PASSWORD,
      name: '코드',
      join_code: 'NOPE',
    });
    expect(response.statusCode).toBe(201);
    expect((await latestMail(ctx.database, 'wrongcode@example.com'))?.subject).toContain(
      '가입 코드를 다시 확인해주세요',
    );
    expect(
      await ctx.database.db.select().from(users).where(eq(users.email, 'wrongcode@example.com')),
    ).toHaveLength(0);
  });

  it('leaves a user outside any company when nothing matches', async () => {
    const client = await registerAndLogin(ctx, 'solo@elsewhere.example');
    expect((await client.get('/api/v1/user/')).json().company).toBeNull();
  });

  it('shows the manager role', async () => {
    const client = await registerAndLogin(ctx, 'boss@acme.example');
    await ctx.database.db.update(users).set({ role: 'manager' }).where(eq(users.email, 'boss@acme.example'));
    expect((await client.get('/api/v1/user/')).json().role).toBe('manager');
  });
});

describe('joining a company with its join code (POST /api/v1/user/join)', () => {
  it('places a member without a company, and answers with the updated user', async () => {
    const client = await registerAndLogin(ctx, 'freelancer@mail.example');
    expect((await client.get('/api/v1/user/')).json().company).toBeNull();

    const wrong = await client.post('/api/v1/user/join', { join_code: 'NOT-THE-CODE' });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json()).toEqual({
      code: 'JOIN_CODE_UNKNOWN',
      message: '가입 코드를 찾을 수 없습니다. 회사에서 받은 코드를 다시 확인해주세요.',
    });
    const empty = await client.post('/api/v1/user/join', { join_code: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe('VALIDATION_ERROR');

    const joined = await client.post('/api/v1/user/join', { join_code: ' ACME-JOIN-7Q2 ' });
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toMatchObject({
      email: 'freelancer@mail.example',
      role: 'member',
      company: { id: acmeId, name: '에이크미 주식회사' },
    });
    expect((await client.get('/api/v1/user/')).json().company?.id).toBe(acmeId);
  });

  it('cannot move an account that already has a company, nor probe codes from it', async () => {
    const client = await registerAndLogin(ctx, 'staff@acme.example');
    const again = await client.post('/api/v1/user/join', { join_code: 'ACME-JOIN-7Q2' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ALREADY_IN_COMPANY');
  });

  it('needs a session', async () => {
    const stranger = new TestClient(ctx.app);
    expect((await stranger.post('/api/v1/user/join', { join_code: 'ACME-JOIN-7Q2' })).statusCode).toBe(401);
  });

  it('counts every attempt from an address, right or wrong, against the hourly join-code limit', async () => {
    const ip = '10.250.0.9';
    const client = await registerAndLogin(ctx, 'guesser@mail.example', { ip });
    const limit = ctx.config.JOIN_CODE_ATTEMPTS_PER_IP_PER_HOUR;
    for (let attempt = 1; attempt <= limit; attempt += 1)
      expect((await client.post('/api/v1/user/join', { join_code: `GUESS-${attempt}` })).statusCode).toBe(
        404,
      );
    // Over the limit even the right code is refused: the answer says nothing about the code.
    const throttled = await client.post('/api/v1/user/join', { join_code: 'ACME-JOIN-7Q2' });
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().code).toBe('RATE_LIMITED');
    expect((await client.get('/api/v1/user/')).json().company).toBeNull();
  });
});

describe('under https', () => {
  it('marks cookies Secure and sends HSTS', async () => {
    const database = await createTestDatabase();
    const secure = await createTestApp({ database, config: { PUBLIC_URL: 'https://singo.example.com' } });
    try {
      const csrf = await secure.app.inject({ method: 'GET', url: '/api/csrf' });
      // Under https the cookies carry the __Host- prefix (docs/decisions/0006).
      expect(csrf.cookies[0]).toMatchObject({ name: '__Host-csrftoken', secure: true, sameSite: 'Lax' });
      expect(csrf.cookies[0]?.httpOnly).toBeFalsy();
      expect(csrf.headers['strict-transport-security']).toContain('max-age=31536000');
      const client = await registerAndLogin(secure, 'https@example.com');
      const login = await client.post('/api/v1/token/', {
        email: 'https@example.com',
        password: STRONG_PASSWORD,
        captcha: await solveCaptcha(secure.app),
      });
      expect(login.cookies.find((cookie) => cookie.name === '__Host-sessionid')).toMatchObject({
        secure: true,
        httpOnly: true,
        sameSite: 'Lax',
      });
    } finally {
      await secure.close();
      await database.close();
    }
  });
});
