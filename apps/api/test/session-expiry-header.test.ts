import { SESSION_EXPIRES_HEADER } from '@ansim/shared/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, TestClient, type TestContext } from './helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ config: { SESSION_IDLE_SECONDS: '7200', SESSION_ABSOLUTE_SECONDS: '43200' } });
});
afterAll(() => ctx.close());

const header = SESSION_EXPIRES_HEADER.toLowerCase();

describe(`${SESSION_EXPIRES_HEADER}`, () => {
  it('comes with every answer to a signed-in request and slides with the idle limit', async () => {
    const client = await registerAndLogin(ctx, 'slide@example.com');
    const before = Math.floor(Date.now() / 1000);
    const answer = await client.request({ url: '/api/v1/user/' });
    expect(answer.statusCode).toBe(200);
    const expires = Number(answer.headers[header]);
    // The idle limit (2 h) from now, not the absolute one (12 h).
    expect(expires).toBeGreaterThanOrEqual(before + 7200 - 61);
    expect(expires).toBeLessThanOrEqual(before + 7200 + 1);
    // An error answer to a signed-in caller carries it too.
    const missing = await client.request({ url: '/api/v1/report/00000000-0000-4000-8000-000000000000' });
    expect(missing.statusCode).toBe(404);
    expect(Number(missing.headers[header])).toBe(expires);
  });

  it('is absent without a live session and on public routes', async () => {
    const stranger = new TestClient(ctx.app);
    const refused = await stranger.request({ url: '/api/v1/user/' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers[header]).toBeUndefined();
    const client = await registerAndLogin(ctx, 'public@example.com');
    const site = await client.request({ url: '/api/v1/site/' });
    expect(site.headers[header]).toBeUndefined();
    await client.request({ method: 'DELETE', url: '/api/v1/token/' });
    const after = await client.request({ url: '/api/v1/user/' });
    expect(after.statusCode).toBe(401);
    expect(after.headers[header]).toBeUndefined();
  });
});
