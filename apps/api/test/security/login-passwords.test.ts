import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { currentCount } from '../../src/domain/rate-limits/rate-limits.ts';
import {
  createTestApp,
  keepInOneWindow,
  latestMail,
  rateLimitKey,
  registerAndLogin,
  STRONG_PASSWORD,
  solveCaptcha,
  TestClient,
  type TestContext,
  tokenFromMail,
} from '../helpers.ts';

/**
 * The real hasher, wrapped so each test can count how often the server hashed or verified a password: proof
 * that a refused request cost no argon2 work, without relying on timing.
 */
const calls = vi.hoisted(() => ({ hash: 0, verify: 0, burn: 0 }));
vi.mock('../../src/lib/passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/lib/passwords.ts')>();
  return {
    ...real,
    hashPassword: (password: string) => {
      calls.hash += 1;
      return real.hashPassword(password);
    },
    verifyPassword: (hash: string, password: string) => {
      calls.verify += 1;
      return real.verifyPassword(hash, password);
    },
    burnPasswordCheck: (password: string) => {
      calls.burn += 1;
      return real.burnPasswordCheck(password);
    },
  };
});

const IP_LIMIT = 4;
const ACCOUNT_CAP = 3;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({
    config: {
      LOGIN_LIMIT_PER_IP_PER_MINUTE: String(IP_LIMIT),
      LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: String(ACCOUNT_CAP),
    },
  });
});
afterAll(() => ctx.close());
beforeEach(() => {
  calls.hash = 0;
  calls.verify = 0;
  calls.burn = 0;
});

async function attempt(client: TestClient, email: string, password: string) {
  return client.post('/api/v1/token/', { email, password, captcha: await solveCaptcha(ctx.app) });
}

describe('security: login throttling and passwords', () => {
  it('throttles login per IP with 429 and Retry-After while the same account still logs in from another IP', async () => {
    await registerAndLogin(ctx, 'throttled@example.com');
    const attacker = new TestClient(ctx.app, '192.0.2.99');
    const ipKey = rateLimitKey(ctx, 'login-ip', '192.0.2.99');
    const statuses: number[] = [];
    for (let i = 0; i <= IP_LIMIT; i += 1) {
      await keepInOneWindow(ctx.database, ipKey, 60);
      // Unknown accounts, so the per-account cap plays no part in what this test sees.
      const response = await attempt(attacker, `nobody-${i}@example.com`, 'wrong-password');
      statuses.push(response.statusCode);
      if (i === IP_LIMIT) {
        expect(response.json().code).toBe('RATE_LIMITED');
        const retryAfter = Number(response.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
    }
    expect(statuses).toEqual([...Array(IP_LIMIT).fill(400), 429]);
    // A throttled IP pays no password work, even with a fresh captcha.
    const hashesBefore = calls.verify + calls.burn;
    await keepInOneWindow(ctx.database, ipKey, 60);
    expect((await attempt(attacker, 'throttled@example.com', STRONG_PASSWORD)).statusCode).toBe(429);
    expect(calls.verify + calls.burn).toBe(hashesBefore);

    const owner = new TestClient(ctx.app, '192.0.2.51');
    const ok = await attempt(owner, 'throttled@example.com', STRONG_PASSWORD);
    expect(ok.statusCode).toBe(200);
  });

  it('counts a burst split by the end of a window as one (the helper the throttling tests rely on)', async () => {
    const key = rateLimitKey(ctx, 'login-ip', '192.0.2.200');
    // Two hits the previous minute, as if the burst began just before the window turned.
    await ctx.database.query(
      `INSERT INTO rate_limits (key, window_start, count, expires_at)
       VALUES ($1, to_timestamp(floor(extract(epoch from now()) / 60) * 60 - 60), 2, now() + interval '1 hour')`,
      [key],
    );
    expect(await currentCount(ctx.database, key, 60)).toBe(0);
    await keepInOneWindow(ctx.database, key, 60);
    expect(await currentCount(ctx.database, key, 60)).toBe(2);
    const [next] = await ctx.database.query<{ count: number }>(
      `SELECT count FROM rate_limits
        WHERE key = $1 AND window_start = to_timestamp(floor(extract(epoch from now()) / 60) * 60 + 60)`,
      [key],
    );
    expect(next?.count).toBe(2);
  });

  it('caps failed logins per account, whichever IPs they come from', async () => {
    await registerAndLogin(ctx, 'capped@example.com');
    const accountKey = rateLimitKey(ctx, 'login-fail', 'capped@example.com');
    for (let i = 0; i < ACCOUNT_CAP; i += 1) {
      await keepInOneWindow(ctx.database, accountKey, 3600);
      const response = await attempt(new TestClient(ctx.app), 'capped@example.com', `wrong-${i}-password`);
      expect(response.json().code).toBe('INVALID_CREDENTIALS');
    }
    const verifiesBefore = calls.verify;
    await keepInOneWindow(ctx.database, accountKey, 3600);
    const blocked = await attempt(new TestClient(ctx.app), 'capped@example.com', STRONG_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(calls.verify).toBe(verifiesBefore);
    expect(blocked.cookies.find((cookie) => cookie.name === 'sessionid')).toBeUndefined();
    // Other accounts are untouched by this one's cap.
    await registerAndLogin(ctx, 'uncapped@example.com');
  });

  it('checks the captcha before the password: a wrong captcha with the right password verifies no password', async () => {
    await registerAndLogin(ctx, 'captcha-first@example.com');
    calls.verify = 0;
    const client = new TestClient(ctx.app);
    const badCaptchas = [
      'not-base64-json',
      Buffer.from(JSON.stringify({ challenge: { parameters: { nonce: 'x' } }, solution: {} })).toString(
        'base64',
      ),
    ];
    for (const captcha of badCaptchas) {
      const response = await client.post('/api/v1/token/', {
        email: 'captcha-first@example.com',
        password: STRONG_PASSWORD,
        captcha,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('CAPTCHA_FAILED');
    }
    expect(calls.verify).toBe(0);
    expect(calls.burn).toBe(0);
    expect(client.cookies.has('sessionid')).toBe(false);
    // The control: with a solved captcha the same request does verify, and logs in.
    expect((await attempt(client, 'captcha-first@example.com', STRONG_PASSWORD)).statusCode).toBe(200);
    expect(calls.verify).toBe(1);
  });

  it('refuses a password over 128 characters at registration, reset and login without hashing it', async () => {
    await registerAndLogin(ctx, 'long@example.com');
    calls.hash = 0;
    calls.verify = 0;
    const client = new TestClient(ctx.app);
    const tooLong = `${'ㄱ가'.repeat(64)}x`;
    expect(tooLong).toHaveLength(129);

    const registered = await client.post('/api/v1/user/', {
      email: 'long-new@example.com',
      password: tooLong,
      name: '긴비번',
    });
    expect(registered.statusCode).toBe(400);
    expect(registered.json().details.password).toContain('128자');

    await client.post('/api/v1/user/password/send-reset-email', { email: 'long@example.com' });
    const token = tokenFromMail(
      (await latestMail(ctx.database, 'long@example.com'))!.text,
      '/reset-password',
    );
    const reset = await client.post('/api/v1/user/email/reset-password', { token, password: tooLong });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().details.password).toContain('128자');

    const login = await attempt(client, 'long@example.com', tooLong);
    expect(login.statusCode).toBe(400);
    expect(login.json().code).toBe('VALIDATION_ERROR');
    // A megabyte of password is refused the same way (the body limit first), still without hashing.
    const huge = await client.post('/api/v1/user/', {
      email: 'huge@example.com',
      password: 'x'.repeat(1024 * 1024),
      name: '큰비번',
    });
    expect([400, 413]).toContain(huge.statusCode);
    expect(calls).toMatchObject({ hash: 0, verify: 0, burn: 0 });

    // The limit itself is allowed and is hashed once; the unused reset token still works with it.
    const atLimit = tooLong.slice(0, 128);
    expect(
      (await client.post('/api/v1/user/email/reset-password', { token, password: atLimit })).statusCode,
    ).toBe(200);
    expect(calls.hash).toBe(1);
  });

  it('refuses a common password at registration and reset', async () => {
    const client = new TestClient(ctx.app);
    for (const password of ['password1', 'qwer1234', 'Iloveyou1', '1q2w3e4r!']) {
      const response = await client.post('/api/v1/user/', {
        email: 'common@example.com',
        password,
        name: '흔한비번',
      });
      expect(response.statusCode, password).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
      expect(response.json().details.password).toContain('흔한');
    }
    expect(
      await ctx.database.db.select().from(users).where(eq(users.email, 'common@example.com')),
    ).toHaveLength(0);
    await registerAndLogin(ctx, 'common-reset@example.com');
    await client.post('/api/v1/user/password/send-reset-email', { email: 'common-reset@example.com' });
    const token = tokenFromMail(
      (await latestMail(ctx.database, 'common-reset@example.com'))!.text,
      '/reset-password',
    );
    const reset = await client.post('/api/v1/user/email/reset-password', { token, password: 'qwerty123' });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().details.password).toContain('흔한');
    // Refused before any hashing, and the old password still works.
    expect(calls.hash).toBe(1);
    expect(
      (await attempt(new TestClient(ctx.app), 'common-reset@example.com', STRONG_PASSWORD)).statusCode,
    ).toBe(200);
  });
});
