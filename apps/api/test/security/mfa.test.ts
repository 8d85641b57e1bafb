import { SESSION_COOKIE } from '@ansim/shared/constants';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mfaTotp, sessions, users } from '../../src/db/schema.ts';
import { MFA_FAILURES_PER_ACCOUNT_PER_HOUR } from '../../src/domain/mfa/mfa-login.ts';
import { createCompany, createManager, reportBody, upload } from '../fixtures.ts';
import {
  createTestApp,
  createTestDatabase,
  dumpDatabase,
  enrolledMfa,
  enrolTotp,
  freshMfaCode,
  keepInOneWindow,
  logIn,
  mailsTo,
  rateLimitKey,
  registerAndLogin,
  STRONG_PASSWORD,
  solveCaptcha,
  TestClient,
  type TestContext,
  totpCodeAt,
} from '../helpers.ts';
import { SoftAuthenticator } from '../soft-authenticator.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '엠에프에이', 'mfa.example');
});
afterAll(() => ctx.close());

const currentStep = () => Math.floor(Date.now() / 30_000);

async function passwordStep(client: TestClient, email: string) {
  return client.post('/api/v1/token/', {
    email,
    password: STRONG_PASSWORD,
    captcha: await solveCaptcha(ctx.app),
  });
}

describe('security: multi-factor authentication', () => {
  it('enrols TOTP: pending until a code and the password confirm it, secret sealed, ten codes, a mail', async () => {
    const email = 'enrol@mfa.example';
    const client = await registerAndLogin(ctx, email);
    const started = await client.post('/api/v1/user/mfa/totp/');
    expect(started.statusCode).toBe(200);
    const { secret, otpauth_uri, qr_data_url } = started.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(qr_data_url).toMatch(/^data:image\/svg\+xml;base64,/);
    expect((await client.get('/api/v1/user/')).json().mfa).toEqual({
      totp: false,
      passkeys: 0,
      recovery_codes_left: 0,
      required: false,
    });
    // Sealed at rest: the base32 secret appears nowhere in the database.
    expect(await dumpDatabase(ctx.database)).not.toContain(secret);

    const code = totpCodeAt(secret, currentStep());
    const wrongPassword = await client.post('/api/v1/user/mfa/totp/confirm', {
      code,
      password: 'not-my-password',
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().details.password).toBeTruthy();
    const wrongCode = await client.post('/api/v1/user/mfa/totp/confirm', {
      code: code === '000000' ? '111111' : '000000',
      password: STRONG_PASSWORD,
    });
    expect(wrongCode.json().code).toBe('INVALID_MFA_CODE');
    // Still pending: a login needs no code yet.
    expect((await passwordStep(new TestClient(ctx.app), email)).json()).toHaveProperty('expires');

    const confirmed = await client.post('/api/v1/user/mfa/totp/confirm', { code, password: STRONG_PASSWORD });
    expect(confirmed.statusCode).toBe(200);
    const codes: string[] = confirmed.json().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await client.get('/api/v1/user/')).json().mfa).toMatchObject({
      totp: true,
      recovery_codes_left: 10,
    });
    const dump = await dumpDatabase(ctx.database);
    for (const recovery of codes) expect(dump).not.toContain(recovery.replace(/-/g, ''));
    expect((await mailsTo(ctx.database, email)).map((mail) => mail.template)).toContain('mfa_totp_enabled');
    // A second enrolment while one is active is refused; the active secret is untouched.
    const [before] = await ctx.database.db.select().from(mfaTotp);
    expect((await client.post('/api/v1/user/mfa/totp/')).statusCode).toBe(409);
    const [after] = await ctx.database.db.select().from(mfaTotp).where(eq(mfaTotp.userId, before!.userId));
    expect(after!.secret).toBe(before!.secret);
  });

  it('answers the right password with mfa_required and no session; the code opens it', async () => {
    const email = 'login@mfa.example';
    const enrolling = await registerAndLogin(ctx, email);
    await enrolTotp(enrolling, email);
    const enrolledSessions = await ctx.database.db.select().from(sessions);

    const client = new TestClient(ctx.app);
    const first = await passwordStep(client, email);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ mfa_required: true });
    expect(client.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await ctx.database.db.select().from(sessions)).toHaveLength(enrolledSessions.length);
    for (const url of ['/api/v1/user/', '/api/v1/token/', '/api/v1/report/', '/api/v1/file/']) {
      expect((await client.get(url)).statusCode, url).toBe(401);
    }
    // The half-finished login lives on the server, named by a cookie: without it there is nothing to finish.
    const stranger = new TestClient(ctx.app);
    const noChallenge = await stranger.post('/api/v1/token/mfa', { code: freshMfaCode(email) });
    expect(noChallenge.json().code).toBe('MFA_CHALLENGE_EXPIRED');

    const second = await client.post('/api/v1/token/mfa', { code: freshMfaCode(email) });
    expect(second.statusCode).toBe(200);
    expect(second.json().expires).toBeGreaterThan(Date.now() / 1000);
    expect((await client.get('/api/v1/user/')).json().email).toBe(email);
    // The challenge was used up with the session it opened.
    const again = await client.post('/api/v1/token/mfa', { code: freshMfaCode(email) });
    expect(again.json().code).toBe('MFA_CHALLENGE_EXPIRED');
  });

  it('refuses a TOTP code of a time step already used', async () => {
    const email = 'replay@mfa.example';
    const enrolling = await registerAndLogin(ctx, email);
    const { secret } = await enrolTotp(enrolling, email);
    const client = new TestClient(ctx.app);
    await passwordStep(client, email);
    const code = totpCodeAt(secret, currentStep() + 1);
    expect((await client.post('/api/v1/token/mfa', { code })).statusCode).toBe(200);

    const replayer = new TestClient(ctx.app);
    expect((await passwordStep(replayer, email)).json().mfa_required).toBe(true);
    const replayed = await replayer.post('/api/v1/token/mfa', { code });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().code).toBe('INVALID_MFA_CODE');
    // An older step than the last one accepted is refused too.
    const older = await replayer.post('/api/v1/token/mfa', { code: totpCodeAt(secret, currentStep()) });
    expect(older.json().code).toBe('INVALID_MFA_CODE');
    expect(replayer.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('accepts each recovery code once, mails the owner, and counts what is left', async () => {
    const email = 'recovery@mfa.example';
    const enrolling = await registerAndLogin(ctx, email);
    const { recoveryCodes } = await enrolTotp(enrolling, email);
    const code = recoveryCodes[0]!;

    const client = new TestClient(ctx.app);
    await passwordStep(client, email);
    // Case, spaces and hyphens do not matter when typed.
    const used = await client.post('/api/v1/token/mfa', { code: code.toLowerCase().replace(/-/g, ' ') });
    expect(used.statusCode).toBe(200);
    expect((await client.get('/api/v1/user/')).json().mfa.recovery_codes_left).toBe(9);
    expect((await mailsTo(ctx.database, email)).map((mail) => mail.template)).toContain(
      'mfa_recovery_code_used',
    );

    const again = new TestClient(ctx.app);
    await passwordStep(again, email);
    const reused = await again.post('/api/v1/token/mfa', { code });
    expect(reused.json().code).toBe('INVALID_MFA_CODE');

    // Regenerating (password needed) kills every old code.
    expect(
      (await client.post('/api/v1/user/mfa/recovery-codes', { password: 'wrong-password' })).statusCode,
    ).toBe(400);
    const fresh = await client.post('/api/v1/user/mfa/recovery-codes', { password: STRONG_PASSWORD });
    expect(fresh.json().recovery_codes).toHaveLength(10);
    expect((await again.post('/api/v1/token/mfa', { code: recoveryCodes[1]! })).json().code).toBe(
      'INVALID_MFA_CODE',
    );
    expect((await again.post('/api/v1/token/mfa', { code: fresh.json().recovery_codes[0] })).statusCode).toBe(
      200,
    );
    expect((await mailsTo(ctx.database, email)).map((mail) => mail.template)).toContain(
      'mfa_recovery_regenerated',
    );
  });

  it('throttles wrong codes: a challenge dies after five, the account answers 429 after ten an hour', async () => {
    const email = 'throttle@mfa.example';
    const enrolling = await registerAndLogin(ctx, email);
    await enrolTotp(enrolling, email);
    const [user] = await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const failKey = rateLimitKey(ctx, 'mfa-fail', user!.id);
    /** One answer to the second-factor step, counted in the same hour window as the others. */
    const answer = async (client: TestClient, code: string) => {
      await keepInOneWindow(ctx.database, failKey, 3600);
      return client.post('/api/v1/token/mfa', { code });
    };
    const { secret } = enrolledMfa.get(email)!;
    const valid = [-1, 0, 1, 2].map((offset) => totpCodeAt(secret, currentStep() + offset));
    const wrong = () =>
      ['000000', '111111', '222222', '333333', '444444'].find((code) => !valid.includes(code))!;
    // A new IP per challenge, so the per-IP minute limit plays no part here.
    const challenge = new TestClient(ctx.app);
    await passwordStep(challenge, email);
    const codes: string[] = [];
    for (let i = 0; i < 5; i += 1) codes.push((await answer(challenge, wrong())).json().code);
    expect(codes).toEqual(Array(5).fill('INVALID_MFA_CODE'));
    const dead = await challenge.post('/api/v1/token/mfa', { code: freshMfaCode(email) });
    expect(dead.json().code).toBe('MFA_CHALLENGE_EXPIRED');

    const next = new TestClient(ctx.app);
    await passwordStep(next, email);
    for (let i = 5; i < MFA_FAILURES_PER_ACCOUNT_PER_HOUR; i += 1)
      expect((await answer(next, wrong())).statusCode).toBe(400);
    const last = new TestClient(ctx.app);
    await passwordStep(last, email);
    const blocked = await answer(last, freshMfaCode(email));
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  /** Forty clients of their own IP (the per-IP minute limit plays no part) holding the cookies of `login`. */
  function copiesOf(login: TestClient, count: number): TestClient[] {
    return Array.from({ length: count }, () => {
      const copy = new TestClient(ctx.app);
      for (const [name, value] of login.cookies) copy.cookies.set(name, value);
      return copy;
    });
  }

  function wrongCodeFor(email: string): string {
    const { secret } = enrolledMfa.get(email)!;
    const valid = [-2, -1, 0, 1, 2].map((offset) => totpCodeAt(secret, currentStep() + offset));
    return ['000000', '111111', '222222', '333333', '444444', '555555'].find(
      (code) => !valid.includes(code),
    )!;
  }

  // An answer is evaluated when it is checked against the factor; only an evaluated answer can be told
  // INVALID_MFA_CODE (the others are refused before: the challenge used up, or the account's hour).
  it('evaluates at most five of forty wrong codes sent at once to one challenge', async () => {
    const email = 'race-challenge@mfa.example';
    const enrolling = await registerAndLogin(ctx, email);
    await enrolTotp(enrolling, email);
    const login = new TestClient(ctx.app);
    await passwordStep(login, email);
    const wrong = wrongCodeFor(email);
    const answers = await Promise.all(
      copiesOf(login, 40).map((client) => client.post('/api/v1/token/mfa', { code: wrong })),
    );
    const codes = answers.map((answer) => answer.json().code as string);
    expect(codes.filter((code) => code === 'INVALID_MFA_CODE').length).toBeLessThanOrEqual(5);
    expect(codes.filter((code) => code === 'INVALID_MFA_CODE').length).toBeGreaterThan(0);
    // The rest were refused unchecked: the challenge used up, or the account's hour claimed by the others.
    for (const code of codes)
      expect(['INVALID_MFA_CODE', 'MFA_CHALLENGE_EXPIRED', 'RATE_LIMITED']).toContain(code);
    // The challenge is used up: even the right code no longer opens it.
    const late = await login.post('/api/v1/token/mfa', { code: freshMfaCode(email) });
    expect(late.json().code).toBe('MFA_CHALLENGE_EXPIRED');
  });

  it('evaluates at most ten of forty wrong codes sent at once over four challenges of one account', async () => {
    const email = 'race-account@mfa.example';
    const enrolling = await registerAndLogin(ctx, email);
    await enrolTotp(enrolling, email);
    const [user] = await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    await keepInOneWindow(ctx.database, rateLimitKey(ctx, 'mfa-fail', user!.id), 3600);
    const logins = [
      new TestClient(ctx.app),
      new TestClient(ctx.app),
      new TestClient(ctx.app),
      new TestClient(ctx.app),
    ];
    for (const login of logins) await passwordStep(login, email);
    const wrong = wrongCodeFor(email);
    const answers = await Promise.all(
      logins
        .flatMap((login) => copiesOf(login, 10))
        .map((client) => client.post('/api/v1/token/mfa', { code: wrong })),
    );
    const evaluated = answers.filter((answer) => answer.json().code === 'INVALID_MFA_CODE').length;
    expect(evaluated).toBeLessThanOrEqual(MFA_FAILURES_PER_ACCOUNT_PER_HOUR);
    expect(evaluated).toBeGreaterThan(0);
  });

  it('keeps the account hour for wrong answers: right ones are given back', async () => {
    const email = 'give-back@mfa.example';
    const enrolling = await registerAndLogin(ctx, email);
    await enrolTotp(enrolling, email);
    const [user] = await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const failKey = rateLimitKey(ctx, 'mfa-fail', user!.id);
    await keepInOneWindow(ctx.database, failKey, 3600);
    const login = new TestClient(ctx.app);
    await passwordStep(login, email);
    expect((await login.post('/api/v1/token/mfa', { code: wrongCodeFor(email) })).statusCode).toBe(400);
    expect((await login.post('/api/v1/token/mfa', { code: freshMfaCode(email) })).statusCode).toBe(200);
    const [row] = await ctx.database.query<{ count: number }>(
      'SELECT max(count) AS count FROM rate_limits WHERE key = $1',
      [failKey],
    );
    expect(Number(row!.count)).toBe(1);
  });

  it('keeps a manager out of every manager route with 403 MFA_ENROLLMENT_REQUIRED until enrolled', async () => {
    const email = 'boss@mfa.example';
    const manager = await createManager(ctx, email, { enrolled: false });
    const me = (await manager.get('/api/v1/user/')).json();
    expect(me.mfa.required).toBe(true);
    const id = '00000000-0000-4000-8000-000000000000';
    for (const url of [
      '/api/v1/manager/report/',
      '/api/v1/manager/report/export.csv',
      `/api/v1/manager/report/${id}`,
      `/api/v1/manager/report/${id}/messages`,
      `/api/v1/manager/report/${id}/events`,
      '/api/v1/manager/stats/reports',
    ]) {
      const response = await manager.get(url);
      expect(response.statusCode, url).toBe(403);
      expect(response.json().code, url).toBe('MFA_ENROLLMENT_REQUIRED');
    }
    await enrolTotp(manager, email);
    expect((await manager.get('/api/v1/manager/report/')).statusCode).toBe(200);
    // Logging in again takes the code, and then the manager routes answer.
    const again = new TestClient(ctx.app);
    expect((await logIn(ctx, again, email)).statusCode).toBe(200);
    expect((await again.get('/api/v1/manager/report/')).statusCode).toBe(200);
  });

  it('keeps case evidence from a manager without a second factor, as the manager routes do', async () => {
    const reporter = await registerAndLogin(ctx, 'evidence-reporter@mfa.example');
    const file = (await upload(reporter, '증거.txt', Buffer.from('메신저 캡처'))).json().id as string;
    const filed = await reporter.post(
      '/api/v1/report/',
      reportBody('formal', {
        acts: [{ date: '2026-10-01', location: '회의실', description: '고성', evidences: [file] }],
      }),
    );
    expect(filed.statusCode).toBe(201);
    const email = 'evidence-boss@mfa.example';
    const manager = await createManager(ctx, email, { enrolled: false });
    const refused = await manager.get(`/api/v1/file/${file}/`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('MFA_ENROLLMENT_REQUIRED');
    await enrolTotp(manager, email);
    expect((await manager.get(`/api/v1/file/${file}/`)).statusCode).toBe(200);
  });

  it('removes TOTP only with the password and a code; then the login needs no code', async () => {
    const email = 'remove@mfa.example';
    const client = await registerAndLogin(ctx, email);
    await enrolTotp(client, email);
    const noCode = await client.request({
      method: 'DELETE',
      url: '/api/v1/user/mfa/totp/',
      json: { code: '123456', password: STRONG_PASSWORD },
    });
    expect(noCode.json().code).toBe('INVALID_MFA_CODE');
    const removed = await client.request({
      method: 'DELETE',
      url: '/api/v1/user/mfa/totp/',
      json: { code: freshMfaCode(email), password: STRONG_PASSWORD },
    });
    expect(removed.statusCode).toBe(204);
    expect((await client.get('/api/v1/user/')).json().mfa).toMatchObject({
      totp: false,
      recovery_codes_left: 0,
    });
    expect((await passwordStep(new TestClient(ctx.app), email)).json()).toHaveProperty('expires');
    expect((await mailsTo(ctx.database, email)).map((mail) => mail.template)).toContain('mfa_totp_removed');
    enrolledMfa.delete(email);
  });

  it('ends the other sessions of the account when a factor is enrolled', async () => {
    const email = 'sessions@mfa.example';
    const first = await registerAndLogin(ctx, email);
    const second = new TestClient(ctx.app);
    expect((await logIn(ctx, second, email)).statusCode).toBe(200);
    await enrolTotp(first, email);
    expect((await first.get('/api/v1/user/')).statusCode).toBe(200);
    expect((await second.get('/api/v1/user/')).statusCode).toBe(401);
  });

  it('registers a passkey (password needed) and logs in with it as the second factor, once per challenge', async () => {
    const email = 'passkey@mfa.example';
    const manager = await createManager(ctx, email, { enrolled: false });
    const authenticator = new SoftAuthenticator('localhost', 'http://localhost');

    const options = (await manager.post('/api/v1/user/mfa/passkeys/registration/options')).json();
    expect(options.rp.id).toBe('localhost');
    const badPassword = await manager.post('/api/v1/user/mfa/passkeys/registration/verify', {
      password: 'wrong-password',
      name: '보안 키',
      response: authenticator.register(options),
    });
    expect(badPassword.statusCode).toBe(400);
    // A response for a challenge the server never gave is refused.
    const options2 = (await manager.post('/api/v1/user/mfa/passkeys/registration/options')).json();
    const forged = await manager.post('/api/v1/user/mfa/passkeys/registration/verify', {
      password: STRONG_PASSWORD,
      response: authenticator.register({ challenge: Buffer.from('forged').toString('base64url') }),
    });
    expect(forged.json().code).toBe('INVALID_MFA_CODE');
    const options3 = (await manager.post('/api/v1/user/mfa/passkeys/registration/options')).json();
    expect(options3.challenge).not.toBe(options2.challenge);
    const registered = await manager.post('/api/v1/user/mfa/passkeys/registration/verify', {
      password: STRONG_PASSWORD,
      name: '보안 키',
      response: authenticator.register(options3),
    });
    expect(registered.statusCode).toBe(200);
    expect(registered.json().passkey.name).toBe('보안 키');
    expect(registered.json().recovery_codes).toHaveLength(10);
    expect((await manager.get('/api/v1/user/')).json().mfa).toMatchObject({ totp: false, passkeys: 1 });
    expect((await manager.get('/api/v1/manager/report/')).statusCode).toBe(200);
    expect((await mailsTo(ctx.database, email)).map((mail) => mail.template)).toContain('mfa_passkey_added');

    const client = new TestClient(ctx.app);
    expect((await passwordStep(client, email)).json().mfa_required).toBe(true);
    // Without a challenge cookie there are no options.
    expect((await new TestClient(ctx.app).post('/api/v1/token/mfa/passkey/options')).statusCode).toBe(400);
    const loginOptions = (await client.post('/api/v1/token/mfa/passkey/options')).json();
    expect(loginOptions.allowCredentials.map((c: { id: string }) => c.id)).toEqual([authenticator.id]);
    const assertion = authenticator.authenticate(loginOptions);
    const verified = await client.post('/api/v1/token/mfa/passkey/verify', { response: assertion });
    expect(verified.statusCode).toBe(200);
    expect((await client.get('/api/v1/manager/report/')).statusCode).toBe(200);

    // The same signed answer does not open a second login: it signed the other challenge.
    const replayer = new TestClient(ctx.app);
    await passwordStep(replayer, email);
    await replayer.post('/api/v1/token/mfa/passkey/options');
    const replayed = await replayer.post('/api/v1/token/mfa/passkey/verify', { response: assertion });
    expect(replayed.json().code).toBe('INVALID_MFA_CODE');
    expect(replayer.cookies.has(SESSION_COOKIE)).toBe(false);

    // Removing it needs the password; with no factor left the manager routes close again.
    const [passkey] = (await manager.get('/api/v1/user/mfa/passkeys/')).json();
    const url = `/api/v1/user/mfa/passkeys/${passkey.id}`;
    expect(
      (await client.request({ method: 'DELETE', url, json: { password: 'nope-nope' } })).statusCode,
    ).toBe(400);
    expect(
      (await client.request({ method: 'DELETE', url, json: { password: STRONG_PASSWORD } })).statusCode,
    ).toBe(204);
    expect((await client.get('/api/v1/manager/report/')).json().code).toBe('MFA_ENROLLMENT_REQUIRED');
    const [row] = await ctx.database.db
      .select({ role: users.role })
      .from(users)
      .where(eq(users.email, email));
    expect(row!.role).toBe('manager');
  });

  it('names the challenge cookie __Host-mfachallenge under https, HttpOnly, Secure, path /', async () => {
    const database = await createTestDatabase();
    const secure = await createTestApp({ database, config: { PUBLIC_URL: 'https://singo.example.com' } });
    try {
      await createCompany(secure, '보안 주식회사', 'secure.example');
      const email = 'https-mfa@secure.example';
      await enrolTotp(await registerAndLogin(secure, email), email);
      const client = new TestClient(secure.app);
      const first = await client.post('/api/v1/token/', {
        email,
        password: STRONG_PASSWORD,
        captcha: await solveCaptcha(secure.app),
      });
      expect(first.json()).toEqual({ mfa_required: true });
      expect(first.cookies.find((cookie) => cookie.name === '__Host-mfachallenge')).toMatchObject({
        path: '/',
        secure: true,
        httpOnly: true,
        sameSite: 'Strict',
      });
      expect(client.cookies.has('mfachallenge')).toBe(false);
      const second = await client.post('/api/v1/token/mfa', { code: freshMfaCode(email) });
      expect(second.statusCode).toBe(200);
      expect(client.cookies.has('__Host-sessionid')).toBe(true);
      expect(client.cookies.has('__Host-mfachallenge')).toBe(false);
    } finally {
      await secure.close();
      await database.close();
    }
  });
});
