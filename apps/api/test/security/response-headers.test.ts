import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { upload } from '../fixtures.ts';
import { createTestApp, registerAndLogin, solveCaptcha, TestClient, type TestContext } from '../helpers.ts';

let ctx: TestContext;
let member: TestClient;

beforeAll(async () => {
  ctx = await createTestApp({ config: { MAX_FILE_BYTES: '1024', LOGIN_LIMIT_PER_IP_PER_MINUTE: '2' } });
  member = await registerAndLogin(ctx, 'headers@example.com');
});
afterAll(() => ctx.close());

function expectSecurityHeaders(response: LightMyRequestResponse, label: string) {
  const csp = String(response.headers['content-security-policy']);
  expect(csp, label).toContain("default-src 'self'");
  expect(csp, label).toContain("frame-ancestors 'none'");
  expect(csp, label).toContain("object-src 'none'");
  expect(csp, label).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  expect(response.headers['x-content-type-options'], label).toBe('nosniff');
  expect(response.headers['x-frame-options'], label).toBe('DENY');
  expect(response.headers['referrer-policy'], label).toMatch(/^(same-origin|no-referrer)$/);
  expect(response.headers['cache-control'], label).toBe('no-store');
  expect(response.headers['x-powered-by'], label).toBeUndefined();
}

describe('security: response headers', () => {
  it('sends the security headers and no-store on every kind of answer: 200, 400, 401, 403, 404, 413, 415, 429 and 500', async () => {
    const seen = new Map<number, LightMyRequestResponse>();
    const record = (response: LightMyRequestResponse) => {
      seen.set(response.statusCode, response);
      return response;
    };
    record(await member.get('/api/v1/user/'));
    record(await ctx.app.inject({ method: 'GET', url: '/api/v1/user/' }));
    record(await ctx.app.inject({ method: 'POST', url: '/api/v1/user/', payload: {} }));
    record(await member.get('/api/v1/nothing-here'));
    record(await member.get('/api/v1/report/00000000-0000-4000-8000-000000000000'));
    record(await upload(member, 'big.txt', Buffer.alloc(1025, 0x61)));
    record(
      await member.request({
        method: 'POST',
        url: '/api/v1/user/',
        headers: { 'content-type': 'text/plain' },
        payload: 'x',
      }),
    );
    const limited = new TestClient(ctx.app);
    for (let i = 0; i < 3; i += 1) {
      record(await limited.post('/api/v1/token/', { email: 'x@example.com', password: 'x', captcha: 'x' }));
    }
    // A database failure in the middle of a request: the 500 is as well dressed as any other answer.
    const failure = vi.spyOn(ctx.database, 'query').mockRejectedValueOnce(new Error('SECRET-DB-DETAIL'));
    const crashed = record(
      await new TestClient(ctx.app).post('/api/v1/token/', {
        email: 'x@example.com',
        password: 'x',
        captcha: await solveCaptcha(ctx.app),
      }),
    );
    failure.mockRestore();
    expect(crashed.statusCode).toBe(500);
    expect(crashed.json()).toEqual({
      code: 'INTERNAL_SERVER_ERROR',
      message: '서버에서 오류가 발생했습니다.',
    });
    expect(crashed.body).not.toContain('SECRET-DB-DETAIL');
    // A large JSON body is cut off at the body limit before it is parsed.
    record(
      await member.request({
        method: 'POST',
        url: '/api/v1/report/',
        headers: { 'content-type': 'application/json' },
        payload: `{"a":"${'x'.repeat(1024 * 1024)}"}`,
      }),
    );

    expect([...seen.keys()].sort()).toEqual([200, 400, 401, 403, 404, 413, 415, 429, 500]);
    for (const [status, response] of seen) expectSecurityHeaders(response, `status ${status}`);
    expect(seen.get(429)!.headers['retry-after']).toBeDefined();
    // The invitee's API answers never send a Referer on, since their address held the token.
    const invitation = await ctx.app.inject({ method: 'GET', url: `/api/v1/invitation/${'x'.repeat(43)}` });
    expectSecurityHeaders(invitation, 'invitation 404');
    expect(invitation.headers['referrer-policy']).toBe('no-referrer');
  });
});
