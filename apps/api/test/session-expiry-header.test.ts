import { SESSION_EXPIRES_HEADER } from '@ansim/shared/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setServerClockOffset } from '../src/lib/server-clock.ts';
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

describe('the e2e test clock (PUT /api/test/clock)', () => {
  it('does not exist unless TEST_CLOCK_ROUTE is set', async () => {
    const client = await registerAndLogin(ctx, 'no-clock@example.com');
    const answer = await client.request({
      method: 'PUT',
      url: '/api/test/clock',
      payload: { offset_seconds: 1 },
    });
    expect(answer.statusCode).toBe(404);
  });

  it('ages sessions: work every hour keeps one alive past 2 h, 2 h of idleness ends it', async () => {
    const clocked = await createTestApp({
      database: ctx.database,
      config: { SESSION_IDLE_SECONDS: '7200', SESSION_ABSOLUTE_SECONDS: '43200', TEST_CLOCK_ROUTE: 'true' },
    });
    try {
      const client = await registerAndLogin(clocked, 'clock@example.com');
      const setClock = async (offset: number) => {
        const answer = await client.request({
          method: 'PUT',
          url: '/api/test/clock',
          payload: { offset_seconds: offset },
        });
        expect(answer.statusCode).toBe(200);
      };
      for (const hours of [1, 2, 3]) {
        await setClock(hours * 3600);
        const answer = await client.request({ url: '/api/v1/user/' });
        expect(answer.statusCode, `after ${hours} h of work`).toBe(200);
        expect(Number(answer.headers[header])).toBeGreaterThanOrEqual(
          Math.floor(Date.now() / 1000) + hours * 3600 + 7200 - 61,
        );
      }
      await setClock(5 * 3600 + 1);
      expect((await client.request({ url: '/api/v1/user/' })).statusCode).toBe(401);
    } finally {
      setServerClockOffset(0);
      await clocked.close();
    }
  });
});
