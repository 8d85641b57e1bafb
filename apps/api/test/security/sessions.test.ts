import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessions, users } from '../../src/db/schema.ts';
import { sha256Hex } from '../../src/lib/tokens.ts';
import {
  createTestApp,
  latestMail,
  registerAndLogin,
  STRONG_PASSWORD,
  solveCaptcha,
  TestClient,
  type TestContext,
  tokenFromMail,
} from '../helpers.ts';

const IDLE_SECONDS = 600;
const ABSOLUTE_SECONDS = 3600;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({
    config: {
      SESSION_IDLE_SECONDS: String(IDLE_SECONDS),
      SESSION_ABSOLUTE_SECONDS: String(ABSOLUTE_SECONDS),
    },
  });
});
afterAll(() => ctx.close());
afterEach(() => {
  vi.useRealTimers();
});

function asSession(id: string) {
  return ctx.app.inject({ method: 'GET', url: '/api/v1/user/', cookies: { sessionid: id } });
}

async function sessionRowsOf(email: string) {
  const [user] = await ctx.database.db.select().from(users).where(eq(users.email, email));
  return ctx.database.db.select().from(sessions).where(eq(sessions.userId, user!.id));
}

async function login(client: TestClient, email: string, password = STRONG_PASSWORD) {
  return client.post('/api/v1/token/', { email, password, captcha: await solveCaptcha(ctx.app) });
}

describe('security: sessions', () => {
  it('changes the session id at login and refuses the old one (also one an attacker planted)', async () => {
    const client = await registerAndLogin(ctx, 'rotation@example.com');
    const first = client.cookies.get('sessionid')!;
    // Session fixation: a value planted before login must never become the session.
    client.cookies.set('sessionid', first);
    expect((await login(client, 'rotation@example.com')).statusCode).toBe(200);
    const second = client.cookies.get('sessionid')!;
    expect(second).not.toBe(first);
    expect((await asSession(first)).statusCode).toBe(401);
    expect((await asSession(second)).statusCode).toBe(200);

    const planted = new TestClient(ctx.app);
    planted.cookies.set('sessionid', 'attacker-chosen-session-id');
    expect((await login(planted, 'rotation@example.com')).statusCode).toBe(200);
    expect(planted.cookies.get('sessionid')).not.toBe('attacker-chosen-session-id');
    expect(planted.cookies.get('sessionid')).toMatch(/^[\w-]{43}$/);
    // Two live sessions (second and planted's), the rotated one gone from the server.
    const rows = await sessionRowsOf('rotation@example.com');
    expect(rows.map((row) => row.idHash).sort()).toEqual(
      [sha256Hex(second), sha256Hex(planted.cookies.get('sessionid')!)].sort(),
    );
  });

  it('ends sessions on the server at logout and at password reset', async () => {
    const client = await registerAndLogin(ctx, 'ending@example.com');
    const loggedOut = client.cookies.get('sessionid')!;
    const logout = await client.delete('/api/v1/token/');
    expect(logout.statusCode).toBe(204);
    expect(logout.cookies.find((cookie) => cookie.name === 'sessionid')?.value).toBe('');
    // Replaying the cookie the browser was told to forget must not work either.
    expect((await asSession(loggedOut)).statusCode).toBe(401);
    expect(await sessionRowsOf('ending@example.com')).toHaveLength(0);

    const phone = new TestClient(ctx.app);
    const laptop = new TestClient(ctx.app);
    expect((await login(phone, 'ending@example.com')).statusCode).toBe(200);
    expect((await login(laptop, 'ending@example.com')).statusCode).toBe(200);
    expect(await sessionRowsOf('ending@example.com')).toHaveLength(2);
    await new TestClient(ctx.app).post('/api/v1/user/password/send-reset-email', {
      email: 'ending@example.com',
    });
    const token = tokenFromMail(
      (await latestMail(ctx.database, 'ending@example.com'))!.text,
      '/reset-password',
    );
    const reset = await new TestClient(ctx.app).post('/api/v1/user/email/reset-password', {
      token,
      password: '새로운-비밀번호-2026!',
    });
    expect(reset.statusCode).toBe(200);
    expect((await phone.get('/api/v1/user/')).statusCode).toBe(401);
    expect((await laptop.get('/api/v1/user/')).statusCode).toBe(401);
    expect(await sessionRowsOf('ending@example.com')).toHaveLength(0);
  });

  it('expires a session after the idle limit, and at the absolute limit however busy it is', async () => {
    const idle = await registerAndLogin(ctx, 'idle-clock@example.com');
    const busy = await registerAndLogin(ctx, 'busy-clock@example.com');
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });

    vi.setSystemTime(start + (IDLE_SECONDS - 5) * 1000);
    expect((await idle.get('/api/v1/token/')).statusCode).toBe(200);
    // That use slid the idle window; untouched for longer than the idle limit, the session is over.
    vi.setSystemTime(start + (IDLE_SECONDS - 5 + IDLE_SECONDS + 1) * 1000);
    expect((await idle.get('/api/v1/token/')).statusCode).toBe(401);
    expect(await sessionRowsOf('idle-clock@example.com')).toHaveLength(0);

    // Used every half idle period: never idle, yet over at the absolute limit.
    for (let at = IDLE_SECONDS / 2; at < ABSOLUTE_SECONDS; at += IDLE_SECONDS / 2) {
      vi.setSystemTime(start + at * 1000);
      const alive = await busy.get('/api/v1/token/');
      expect(alive.statusCode, `at ${at}s`).toBe(200);
      expect(alive.json().expires).toBeLessThanOrEqual(Math.floor(start / 1000) + ABSOLUTE_SECONDS + 1);
    }
    vi.setSystemTime(start + (ABSOLUTE_SECONDS + 2) * 1000);
    expect((await busy.get('/api/v1/token/')).statusCode).toBe(401);
  });

  it('sets HttpOnly SameSite cookies, and Secure ones under an https PUBLIC_URL', async () => {
    const plain = await login(await registerAndLogin(ctx, 'flags@example.com'), 'flags@example.com');
    const session = plain.cookies.find((cookie) => cookie.name === 'sessionid');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(session?.secure).toBeFalsy();
    const csrf = await ctx.app.inject({ method: 'GET', url: '/api/csrf' });
    // The CSRF cookie must be readable by the page (double submit), but still SameSite.
    expect(csrf.cookies[0]).toMatchObject({ name: 'csrftoken', sameSite: 'Lax', path: '/' });
    expect(csrf.cookies[0]?.httpOnly).toBeFalsy();
    expect(csrf.headers['strict-transport-security']).toBeUndefined();

    const https = await createTestApp({
      database: ctx.database,
      config: { PUBLIC_URL: 'https://singo.example.com' },
    });
    try {
      const client = new TestClient(https.app);
      const secureCsrf = await client.get('/api/csrf');
      // Under https the names carry the __Host- prefix (docs/decisions/0006).
      expect(secureCsrf.cookies[0]).toMatchObject({
        name: '__Host-csrftoken',
        secure: true,
        sameSite: 'Lax',
      });
      expect(secureCsrf.headers['strict-transport-security']).toContain('max-age=31536000');
      const secureLogin = await client.post(
        '/api/v1/token/',
        { email: 'flags@example.com', password: STRONG_PASSWORD, captcha: await solveCaptcha(https.app) },
        { origin: 'https://singo.example.com' },
      );
      expect(secureLogin.statusCode).toBe(200);
      expect(secureLogin.cookies.find((cookie) => cookie.name === '__Host-sessionid')).toMatchObject({
        secure: true,
        httpOnly: true,
        sameSite: 'Lax',
        path: '/',
      });
      const logout = await client.delete('/api/v1/token/');
      expect(logout.cookies.find((cookie) => cookie.name === '__Host-sessionid')).toMatchObject({
        secure: true,
        httpOnly: true,
      });
    } finally {
      await https.close();
    }
  });
});
