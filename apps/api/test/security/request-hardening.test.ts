import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import {
  createTestApp,
  mailsTo,
  registerAndLogin,
  STRONG_PASSWORD,
  solveCaptcha,
  TestClient,
  type TestContext,
} from '../helpers.ts';

let ctx: TestContext;
let https: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
  https = await createTestApp({ config: { PUBLIC_URL: 'https://singo.example' } });
});
afterAll(async () => {
  await ctx.close();
  await https.close();
});

/** The spellings of `/api` a router decodes to the same routes (or to none, with the same headers). */
const SPELLINGS = ['/%61pi', '/%61%70%69', '/a%70i', '/%41PI', '//api'];

describe('F5: CSRF and no-store apply by the decoded path, whatever the spelling of the URL', () => {
  it('F5: refuses an unsafe request without the token under /%61pi/, from a foreign origin too', async () => {
    for (const prefix of SPELLINGS) {
      const email = `f5-${prefix.length}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const response = await ctx.app.inject({
        method: 'POST',
        url: `${prefix}/v1/user/`,
        headers: { origin: 'https://evil.example' },
        payload: { email, password: STRONG_PASSWORD, name: '공격' },
      });
      expect(response.statusCode, prefix).toBe(403);
      expect(response.json().code, prefix).toBe('CSRF_FAILED');
      expect(await mailsTo(ctx.database, email)).toHaveLength(0);
    }
  });

  it('F5: refuses a body-less unsafe request under another spelling (logout needs the token too)', async () => {
    const member = await registerAndLogin(ctx, 'f5-logout@example.com');
    const sessionid = member.cookies.get('sessionid')!;
    for (const url of ['/%61pi/v1/token/', '/api/v1/%74oken/']) {
      const response = await ctx.app.inject({ method: 'DELETE', url, cookies: { sessionid } });
      expect(response.statusCode, url).toBe(403);
    }
    expect((await member.get('/api/v1/token/')).statusCode).toBe(200);
  });

  it('F5: sends Cache-Control: no-store under /%61pi/ and //api/', async () => {
    const member = await registerAndLogin(ctx, 'f5-cache@example.com');
    for (const url of ['/%61pi/v1/user/', '//api/v1/user/', '/api//v1/user/', '/%61pi/v1/nothing']) {
      const response = await member.get(url);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    const me = await member.get('/%61pi/v1/user/');
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('f5-cache@example.com');
  });
});

describe('F11: TRUST_PROXY takes a hop count or proxy addresses, never true', () => {
  it('F11: refuses true at start-up with one line saying why', () => {
    for (const value of ['true', 'TRUE', 'yes']) {
      let message = '';
      try {
        loadConfig({ TRUST_PROXY: value });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toMatch(/TRUST_PROXY: true is refused: it trusts every X-Forwarded-For hop/);
    }
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY/);
  });

  it('F11: reads false, a hop count and a list of addresses and ranges', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'loopback',
    ]);
  });

  it('F11: with one trusted hop, a forged X-Forwarded-For cannot escape the login limit', async () => {
    const proxied = await createTestApp({
      config: { TRUST_PROXY: '1', LOGIN_LIMIT_PER_IP_PER_MINUTE: '2' },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        // The proxy appends the client it saw (198.51.100.9); the client forged everything left of it.
        const response = await proxied.app.inject({
          method: 'POST',
          url: '/api/v1/token/',
          remoteAddress: '10.0.0.2',
          headers: {
            'x-forwarded-for': `203.0.113.${i}, 198.51.100.9`,
            'x-csrftoken': 't'.repeat(43),
            cookie: `csrftoken=${'t'.repeat(43)}`,
          },
          payload: { email: 'x@example.com', password: 'x', captcha: 'x' },
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([400, 400, 429]);
    } finally {
      await proxied.close();
    }
  });
});

describe('F12: headers, cookies and error bodies', () => {
  it('F12: sends a Permissions-Policy that switches off camera, microphone and location', async () => {
    for (const url of ['/api/health', '/api/v1/user/', '/nothing', '/api/docs']) {
      const policy = String((await ctx.app.inject({ method: 'GET', url })).headers['permissions-policy']);
      expect(policy, url).toContain('camera=()');
      expect(policy, url).toContain('microphone=()');
      expect(policy, url).toContain('geolocation=()');
      expect(policy, url).toContain('publickey-credentials-get=(self)');
    }
  });

  it('F12: serves /api/docs under the same strict CSP as the rest', async () => {
    const strict = (await ctx.app.inject({ method: 'GET', url: '/api/health' })).headers[
      'content-security-policy'
    ];
    for (const url of ['/api/docs', '/api/docs/static/swagger-initializer.js', '/api/docs/json']) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      const csp = String(response.headers['content-security-policy']);
      expect(csp, url).toBe(strict);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).not.toMatch(/https:|validator\.swagger\.io|script-src[^;]*unsafe/);
    }
    // swagger-ui needs no inline script: every script of its page is a file of our own origin.
    const page = (await ctx.app.inject({ method: 'GET', url: '/api/docs' })).body;
    expect(page).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  it("F12: Fastify's own error bodies never echo the raw path or input", async () => {
    const client = new TestClient(ctx.app);
    await client.fetchCsrf();
    const answers = [
      await client.get('/api/v1/%zz<PROBE>'),
      await client.get('/%zzPROBE'),
      await client.get(`/api/v1/report/${'PROBE'.repeat(40)}`),
      await client.get('/api/v1/PROBE-route'),
      await client.request({ method: 'PROPFIND', url: '/api/PROBE' }),
      await client.request({
        method: 'POST',
        url: '/api/v1/user/',
        headers: { 'content-type': 'application/json' },
        payload: '{"PROBE',
      }),
      await client.request({
        method: 'POST',
        url: '/api/v1/user/',
        headers: { 'content-type': 'application/PROBE' },
        payload: 'PROBE',
      }),
      await client.request({
        method: 'POST',
        url: '/api/v1/user/',
        headers: { 'content-type': 'application/json', 'content-length': 'PROBE' },
        payload: '{}',
      }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode).toBeLessThan(500);
      expect(answer.body).not.toMatch(/PROBE|FST_|Bad Request|statusCode/);
      expect(answer.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('F12: keeps the plain cookie names over http', async () => {
    const client = await registerAndLogin(ctx, 'f12-http@example.com');
    expect(client.cookies.has('sessionid')).toBe(true);
    expect(client.cookies.has('csrftoken')).toBe(true);
    expect([...client.cookies.keys()].some((name) => name.startsWith('__Host-'))).toBe(false);
  });

  it('F12: uses __Host- cookies under https, and refuses the plain names there', async () => {
    const client = new TestClient(https.app);
    const csrf = await client.get('/api/csrf');
    const csrfCookie = csrf.cookies.find((cookie) => cookie.name === '__Host-csrftoken');
    expect(csrfCookie).toMatchObject({ path: '/', secure: true, sameSite: 'Lax' });
    expect(csrfCookie).not.toHaveProperty('domain');
    expect(csrf.cookies.some((cookie) => cookie.name === 'csrftoken')).toBe(false);

    const client2 = await registerAndLogin(https, 'f12-https@example.com');
    expect(client2.cookies.has('__Host-sessionid')).toBe(true);
    expect(client2.cookies.has('sessionid')).toBe(false);
    expect((await client2.get('/api/v1/user/')).statusCode).toBe(200);

    // A plain `csrftoken` (which a sibling subdomain could plant) is no token under https.
    const planted = await https.app.inject({
      method: 'POST',
      url: '/api/v1/user/email/register',
      cookies: { csrftoken: 'p'.repeat(43) },
      headers: { 'x-csrftoken': 'p'.repeat(43) },
      payload: { email: 'planted@example.com' },
    });
    expect(planted.statusCode).toBe(403);
    // Nor is a plain `sessionid`.
    const plainSession = await https.app.inject({
      method: 'GET',
      url: '/api/v1/user/',
      cookies: { sessionid: client2.cookies.get('__Host-sessionid')! },
    });
    expect(plainSession.statusCode).toBe(401);
  });

  it('F12: rotates the CSRF cookie at login; the pre-login token no longer passes', async () => {
    await registerAndLogin(ctx, 'f12-rotate@example.com');
    const client = new TestClient(ctx.app);
    await client.fetchCsrf();
    const before = client.cookies.get('csrftoken')!;
    const login = await client.post('/api/v1/token/', {
      email: 'f12-rotate@example.com',
      password: STRONG_PASSWORD,
      captcha: await solveCaptcha(ctx.app),
    });
    expect(login.statusCode).toBe(200);
    const after = client.cookies.get('csrftoken')!;
    expect(after).toMatch(/^[\w-]{43}$/);
    expect(after).not.toBe(before);
    const stale = await client.delete('/api/v1/token/', { 'X-CSRFToken': before });
    expect(stale.statusCode).toBe(403);
    expect((await client.delete('/api/v1/token/')).statusCode).toBe(204);
  });
});
