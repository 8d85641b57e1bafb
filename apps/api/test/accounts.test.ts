import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users, userTokens } from '../src/db/schema.ts';
import { sha256Hex } from '../src/lib/tokens.ts';
import {
  createTestApp,
  latestMail,
  mailsTo,
  registerAndLogin,
  STRONG_PASSWORD,
  solveCaptcha,
  TestClient,
  type TestContext,
  tokenFromMail,
} from './helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('the whole account journey', () => {
  it('csrf → register → mail in outbox → confirm → captcha → login → token → user → logout → 401', async () => {
    const client = new TestClient(ctx.app);
    const csrf = await client.get('/api/csrf');
    expect(csrf.statusCode).toBe(204);
    expect(client.cookies.get('csrftoken')).toMatch(/^[\w-]{43}$/);

    const registered = await client.post('/api/v1/user/', {
      email: 'Journey@Example.com',
      password: STRONG_PASSWORD,
      name: '홍길동',
    });
    expect(registered.statusCode).toBe(201);

    const mail = await latestMail(ctx.database, 'journey@example.com');
    expect(mail?.subject).toContain('이메일 주소를 인증해주세요');
    expect(mail?.status).toBe('pending');
    const token = tokenFromMail(mail!.text, '/register/confirm');
    expect(mail!.text).toContain(`http://localhost/register/confirm?token=`);

    const beforeConfirm = await client.post('/api/v1/token/', {
      email: 'journey@example.com',
      password: STRONG_PASSWORD,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(beforeConfirm.statusCode).toBe(403);
    expect(beforeConfirm.json().code).toBe('EMAIL_NOT_CONFIRMED');

    const confirmed = await client.post('/api/v1/user/email/confirm-email', { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ email: 'journey@example.com' });

    const login = await client.post('/api/v1/token/', {
      email: 'journey@example.com',
      password: STRONG_PASSWORD,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(login.statusCode).toBe(200);
    const { expires } = login.json();
    const now = Date.now() / 1000;
    expect(expires).toBeGreaterThan(now + 3600);
    expect(expires).toBeLessThanOrEqual(now + 2 * 3600 + 5);
    const sessionCookie = login.cookies.find((c) => c.name === 'sessionid');
    expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(sessionCookie?.secure).toBeFalsy();

    const tokenCheck = await client.get('/api/v1/token/');
    expect(tokenCheck.statusCode).toBe(200);
    expect(tokenCheck.json().expires).toBeGreaterThan(now);

    const me = await client.get('/api/v1/user/');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: 'journey@example.com',
      name: '홍길동',
      role: 'member',
      company: null,
    });
    expect(me.json()).not.toHaveProperty('password_hash');

    const logout = await client.delete('/api/v1/token/');
    expect(logout.statusCode).toBe(204);
    const after = await client.get('/api/v1/token/');
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ code: 'UNAUTHORIZED', message: '로그인이 필요합니다.' });
  });

  it('stores only hashes of session ids and tokens', async () => {
    const client = await registerAndLogin(ctx, 'hashes@example.com');
    const id = client.cookies.get('sessionid')!;
    const rows = await ctx.database.db.select().from(sessions);
    expect(rows.some((row) => row.idHash === id)).toBe(false);
    expect(rows.some((row) => row.idHash === sha256Hex(id))).toBe(true);
    const tokenRows = await ctx.database.db.select().from(userTokens);
    expect(tokenRows.every((row) => /^[0-9a-f]{64}$/.test(row.tokenHash))).toBe(true);
  });
});

describe('CSRF', () => {
  it('refuses an unsafe call without the header, with a mismatched one, and from another origin', async () => {
    const body = { email: 'csrf@example.com', password: STRONG_PASSWORD, name: '김철수' };
    const noCookie = await ctx.app.inject({ method: 'POST', url: '/api/v1/user/', payload: body });
    expect(noCookie.statusCode).toBe(403);
    expect(noCookie.json().code).toBe('CSRF_FAILED');

    const client = new TestClient(ctx.app);
    await client.fetchCsrf();
    const missing = await client.post('/api/v1/user/', body, { 'X-CSRFToken': '' });
    expect(missing.statusCode).toBe(403);
    const mismatched = await client.post('/api/v1/user/', body, { 'X-CSRFToken': 'x'.repeat(43) });
    expect(mismatched.statusCode).toBe(403);
    const crossOrigin = await client.post('/api/v1/user/', body, { origin: 'https://evil.example' });
    expect(crossOrigin.statusCode).toBe(403);
    expect(crossOrigin.json().code).toBe('CSRF_FAILED');
    const sameOrigin = await client.post('/api/v1/user/', body, { origin: 'http://localhost' });
    expect(sameOrigin.statusCode).toBe(201);
    expect(await mailsTo(ctx.database, 'csrf@example.com')).toHaveLength(1);
  });

  it('needs no token for safe methods', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});

describe('captcha', () => {
  async function confirmedClient(email: string) {
    const client = await registerAndLogin(ctx, email);
    await client.delete('/api/v1/token/');
    return client;
  }

  it('refuses a missing, a wrong and a replayed solution, before looking at the password', async () => {
    const client = await confirmedClient('captcha@example.com');
    const missing = await client.post('/api/v1/token/', {
      email: 'captcha@example.com',
      password: STRONG_PASSWORD,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('VALIDATION_ERROR');
    expect(missing.json().details).toHaveProperty('captcha');

    const wrong = await client.post('/api/v1/token/', {
      email: 'captcha@example.com',
      password: STRONG_PASSWORD,
      captcha: Buffer.from(
        JSON.stringify({ challenge: { parameters: { nonce: 'x' } }, solution: {} }),
      ).toString('base64'),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('CAPTCHA_FAILED');

    const garbage = await client.post('/api/v1/token/', {
      email: 'captcha@example.com',
      password: STRONG_PASSWORD,
      captcha: 'not-base64-json',
    });
    expect(garbage.json().code).toBe('CAPTCHA_FAILED');

    const captcha = await solveCaptcha(ctx.app);
    const first = await client.post('/api/v1/token/', {
      email: 'captcha@example.com',
      password: 'wrong-password-123',
      captcha,
    });
    expect(first.json().code).toBe('INVALID_CREDENTIALS');
    const replayed = await client.post('/api/v1/token/', {
      email: 'captcha@example.com',
      password: STRONG_PASSWORD,
      captcha,
    });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().code).toBe('CAPTCHA_FAILED');
    expect(client.cookies.has('sessionid')).toBe(false);
  });

  it('checks the captcha before the password: a right password with a bad captcha does not log in', async () => {
    const client = await confirmedClient('order@example.com');
    const response = await client.post('/api/v1/token/', {
      email: 'order@example.com',
      password: STRONG_PASSWORD,
      captcha: 'bad',
    });
    expect(response.json().code).toBe('CAPTCHA_FAILED');
    expect((await client.get('/api/v1/token/')).statusCode).toBe(401);
  });
});

describe('login', () => {
  it('answers a wrong password and an unknown e-mail with the same 400', async () => {
    await registerAndLogin(ctx, 'known@example.com');
    const client = new TestClient(ctx.app, '198.51.100.7');
    const wrongPassword = await client.post('/api/v1/token/', {
      email: 'known@example.com',
      password: 'not-the-password',
      captcha: await solveCaptcha(ctx.app),
    });
    const unknown = await client.post('/api/v1/token/', {
      email: 'nobody@example.com',
      password: 'not-the-password',
      captcha: await solveCaptcha(ctx.app),
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrongPassword.json()).toEqual(unknown.json());
    expect(wrongPassword.json().code).toBe('INVALID_CREDENTIALS');
  });

  it('rotates the session id at login: the pre-login id no longer works', async () => {
    const client = await registerAndLogin(ctx, 'rotate@example.com');
    const first = client.cookies.get('sessionid')!;
    const again = await client.post('/api/v1/token/', {
      email: 'rotate@example.com',
      password: STRONG_PASSWORD,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(again.statusCode).toBe(200);
    const second = client.cookies.get('sessionid')!;
    expect(second).not.toBe(first);
    const old = await ctx.app.inject({ method: 'GET', url: '/api/v1/token/', cookies: { sessionid: first } });
    expect(old.statusCode).toBe(401);
    const current = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/token/',
      cookies: { sessionid: second },
    });
    expect(current.statusCode).toBe(200);
  });

  it('kills the cookie at logout on the server, not only in the browser', async () => {
    const client = await registerAndLogin(ctx, 'logout@example.com');
    const id = client.cookies.get('sessionid')!;
    await client.delete('/api/v1/token/');
    const replay = await ctx.app.inject({ method: 'GET', url: '/api/v1/user/', cookies: { sessionid: id } });
    expect(replay.statusCode).toBe(401);
  });

  it('limits login attempts per IP with 429 and Retry-After, while another IP still logs in', async () => {
    await registerAndLogin(ctx, 'limited@example.com', { ip: '192.0.2.50' });
    const attacker = new TestClient(ctx.app, '192.0.2.99');
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<TestClient['post']>> | undefined;
    for (let i = 0; i < 11; i += 1) {
      const response = await attacker.post('/api/v1/token/', {
        email: 'limited@example.com',
        password: `guess-${i}-wrong`,
        captcha: 'x',
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) limited = response;
    }
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(limited?.json().code).toBe('RATE_LIMITED');
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited?.headers['retry-after'])).toBeLessThanOrEqual(60);

    const owner = new TestClient(ctx.app, '192.0.2.51');
    const ok = await owner.post('/api/v1/token/', {
      email: 'limited@example.com',
      password: STRONG_PASSWORD,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(ok.statusCode).toBe(200);
  });

  it('caps failures per account per hour', async () => {
    const capped = await createTestApp({ config: { LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: '3' } });
    try {
      await registerAndLogin(capped, 'cap@example.com');
      for (let i = 0; i < 3; i += 1) {
        const client = new TestClient(capped.app, `192.0.2.${100 + i}`);
        const response = await client.post('/api/v1/token/', {
          email: 'cap@example.com',
          password: 'wrong-password',
          captcha: await solveCaptcha(capped.app),
        });
        expect(response.json().code).toBe('INVALID_CREDENTIALS');
      }
      const client = new TestClient(capped.app, '192.0.2.200');
      const blocked = await client.post('/api/v1/token/', {
        email: 'cap@example.com',
        password: STRONG_PASSWORD,
        captcha: await solveCaptcha(capped.app),
      });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.headers['retry-after']).toBeDefined();
    } finally {
      await capped.close();
    }
  });
});

describe('registration and reset do not reveal accounts', () => {
  it('answers registration of a taken address exactly like a new one', async () => {
    await registerAndLogin(ctx, 'taken@example.com');
    const client = new TestClient(ctx.app);
    const taken = await client.post('/api/v1/user/', {
      email: 'taken@example.com',
      password: STRONG_PASSWORD,
      name: '다른 사람',
    });
    const fresh = await client.post('/api/v1/user/', {
      email: 'fresh@example.com',
      password: STRONG_PASSWORD,
      name: '새 사람',
    });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.body).toBe(fresh.body);
    // The owner of the taken address is told someone tried, instead of getting a second account.
    expect((await latestMail(ctx.database, 'taken@example.com'))?.template).toBe('already_registered');
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, 'taken@example.com'));
    expect(row?.name).toBe('테스트 사용자');
  });

  it('answers re-send and reset requests identically for known and unknown addresses', async () => {
    await registerAndLogin(ctx, 'same@example.com');
    const client = new TestClient(ctx.app);
    for (const url of ['/api/v1/user/email/register', '/api/v1/user/password/send-reset-email']) {
      const known = await client.post(url, { email: 'same@example.com' });
      const unknown = await client.post(url, { email: 'unknown-person@example.com' });
      expect(known.statusCode).toBe(202);
      expect(unknown.statusCode).toBe(202);
      expect(known.body).toBe(unknown.body);
    }
    expect(await mailsTo(ctx.database, 'unknown-person@example.com')).toHaveLength(0);
  });

  it('re-sends the confirmation mail of a pending account with a new token; the old one dies', async () => {
    const client = new TestClient(ctx.app);
    await client.post('/api/v1/user/', {
      email: 'pending@example.com',
      password: STRONG_PASSWORD,
      name: '대기',
    });
    const firstToken = tokenFromMail(
      (await latestMail(ctx.database, 'pending@example.com'))!.text,
      '/register/confirm',
    );
    await client.post('/api/v1/user/email/register', { email: 'pending@example.com' });
    const mails = await mailsTo(ctx.database, 'pending@example.com');
    expect(mails).toHaveLength(2);
    // Both rows may carry the same created_at; the first token is known, so the other mail holds the new one.
    const tokens = mails.map((mail) => tokenFromMail(mail.text, '/register/confirm'));
    expect(tokens).toContain(firstToken);
    const secondToken = tokens.find((token) => token !== firstToken);
    expect(secondToken).toBeDefined();
    expect((await client.post('/api/v1/user/email/confirm-email', { token: firstToken })).json().code).toBe(
      'INVALID_TOKEN',
    );
    expect((await client.post('/api/v1/user/email/confirm-email', { token: secondToken })).statusCode).toBe(
      200,
    );
  });
});

describe('password reset', () => {
  it('sets the new password, ends every session, and the token works once', async () => {
    const phone = await registerAndLogin(ctx, 'reset@example.com', { ip: '192.0.2.61' });
    const laptop = new TestClient(ctx.app, '192.0.2.62');
    const login = await laptop.post('/api/v1/token/', {
      email: 'reset@example.com',
      password: STRONG_PASSWORD,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(login.statusCode).toBe(200);

    await laptop.post('/api/v1/user/password/send-reset-email', { email: 'reset@example.com' });
    const mail = await latestMail(ctx.database, 'reset@example.com');
    expect(mail?.template).toBe('reset_password');
    const token = tokenFromMail(mail!.text, '/reset-password');

    const common = await laptop.post('/api/v1/user/email/reset-password', { token, password: 'password123' });
    expect(common.statusCode).toBe(400);
    expect(common.json().details).toHaveProperty('password');

    const reset = await laptop.post('/api/v1/user/email/reset-password', {
      token,
      password: '새로운-비밀번호-2026',
    });
    expect(reset.statusCode).toBe(200);
    expect((await phone.get('/api/v1/token/')).statusCode).toBe(401);
    expect((await laptop.get('/api/v1/token/')).statusCode).toBe(401);

    const reused = await laptop.post('/api/v1/user/email/reset-password', {
      token,
      password: '또-다른-비밀번호-2026',
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().code).toBe('INVALID_TOKEN');

    const oldPassword = await laptop.post('/api/v1/token/', {
      email: 'reset@example.com',
      password: STRONG_PASSWORD,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(oldPassword.json().code).toBe('INVALID_CREDENTIALS');
    const newPassword = await laptop.post('/api/v1/token/', {
      email: 'reset@example.com',
      password: '새로운-비밀번호-2026',
      captcha: await solveCaptcha(ctx.app),
    });
    expect(newPassword.statusCode).toBe(200);
  });

  it('refuses an expired token and a token of the other purpose', async () => {
    await registerAndLogin(ctx, 'expired@example.com');
    const client = new TestClient(ctx.app);
    await client.post('/api/v1/user/password/send-reset-email', { email: 'expired@example.com' });
    const token = tokenFromMail(
      (await latestMail(ctx.database, 'expired@example.com'))!.text,
      '/reset-password',
    );
    await ctx.database.db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userTokens.tokenHash, sha256Hex(token)));
    const expired = await client.post('/api/v1/user/email/reset-password', {
      token,
      password: '새로운-비밀번호-2026',
    });
    expect(expired.json().code).toBe('INVALID_TOKEN');
    const wrongPurpose = await client.post('/api/v1/user/email/confirm-email', { token });
    expect(wrongPurpose.json().code).toBe('INVALID_TOKEN');
  });
});

describe('passwords', () => {
  it('refuses short, over-long and common passwords with field details', async () => {
    const client = new TestClient(ctx.app);
    const cases: [string, string][] = [
      ['short1!', '8자'],
      ['a'.repeat(129), '128자'],
      ['qwerty123', '흔한'],
      ['1q2w3e4r', '흔한'],
    ];
    for (const [password, fragment] of cases) {
      const response = await client.post('/api/v1/user/', {
        email: 'pw@example.com',
        password,
        name: '비번',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
      expect(response.json().details.password).toContain(fragment);
    }
    expect(await mailsTo(ctx.database, 'pw@example.com')).toHaveLength(0);
  });
});

describe('errors and hygiene', () => {
  it('answers unknown API routes with 404 NOT_FOUND and wrong content types with 415', async () => {
    const notFound = await ctx.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json()).toEqual({ code: 'NOT_FOUND', message: '요청한 항목을 찾을 수 없습니다.' });
    const client = new TestClient(ctx.app);
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
      const response = await client.request({
        method: 'POST',
        url: '/api/v1/user/',
        payload: 'email=a@b.co',
        headers: { 'content-type': contentType },
      });
      expect(response.statusCode).toBe(415);
      expect(response.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const broken = await client.request({
      method: 'POST',
      url: '/api/v1/user/',
      payload: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().code).toBe('VALIDATION_ERROR');
  });

  it('sends security headers and no-store on API answers, errors included', async () => {
    for (const url of ['/api/health', '/api/v1/token/', '/api/v1/missing']) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(String(response.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
      expect(String(response.headers['content-security-policy'])).not.toContain('unsafe-eval');
    }
  });

  it('reports readiness of the database', async () => {
    const ready = await ctx.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
  });

  it('publishes an OpenAPI document built from the schemas', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/api/v1/token/', '/api/v1/user/', '/api/v1/user/email/confirm-email']),
    );
  });
});
