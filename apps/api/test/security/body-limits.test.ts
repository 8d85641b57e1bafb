import { ERROR_MESSAGES_KO } from '@ansim/shared/messages.ko';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isJsonWithinLimits,
  MAX_JSON_ARRAY_ITEMS,
  MAX_JSON_DEPTH,
  SMALL_BODY_BYTES,
} from '../../src/plugins/body-limits.ts';
import { createCompany, reportBody } from '../fixtures.ts';
import { createTestApp, registerAndLogin, TestClient, type TestContext } from '../helpers.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
  await createCompany(ctx, '본문 제한 회사', 'bodies.example');
});
afterAll(() => ctx.close());

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** A JSON body of `bytes` bytes: an object whose one string field pads it. */
function paddedBody(bytes: number, fields: Record<string, unknown> = {}): string {
  const head = JSON.stringify({ ...fields, padding: '' });
  return `${head.slice(0, -2)}${'x'.repeat(bytes - head.length)}"}`;
}

async function postRaw(client: TestClient, url: string, payload: string) {
  return client.request({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
}

describe('request bodies: limits per route', () => {
  it.each([
    '/api/v1/token/',
    '/api/v1/token/mfa',
    '/api/v1/token/mfa/passkey/verify',
    '/api/v1/receipt/',
    '/api/v1/intake/',
  ])('refuses a body over a few KB on %s with 413 BODY_TOO_LARGE in Korean', async (url) => {
    const client = new TestClient(ctx.app);
    const within = await postRaw(client, url, paddedBody(SMALL_BODY_BYTES - 100));
    expect(within.statusCode).not.toBe(413);
    const over = await postRaw(client, url, paddedBody(SMALL_BODY_BYTES + 1));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({ code: 'BODY_TOO_LARGE', message: ERROR_MESSAGES_KO.BODY_TOO_LARGE });
  });

  it('still takes a report of more than a few KB', async () => {
    const reporter = await registerAndLogin(ctx, 'large-report@bodies.example');
    const response = await reporter.post('/api/v1/report/', {
      ...reportBody('formal'),
      extra_info: '긴 설명 '.repeat(900),
    });
    expect(response.statusCode).toBe(201);
  });
});

describe('request bodies: nesting and arrays refused before parsing', () => {
  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} with 400 BODY_TOO_COMPLEX in Korean`, async () => {
    const client = new TestClient(ctx.app);
    const deep = await postRaw(client, '/api/v1/user/', `{"email":${nested(MAX_JSON_DEPTH + 1)}}`);
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toEqual({ code: 'BODY_TOO_COMPLEX', message: ERROR_MESSAGES_KO.BODY_TOO_COMPLEX });
    // A megabyte of brackets, as an attacker would send it, gets the same answer.
    const huge = await postRaw(client, '/api/v1/user/', nested(500_000));
    expect(huge.json().code).toBe('BODY_TOO_COMPLEX');
    // At the limit the body is parsed and judged by the route's schema.
    const atLimit = await postRaw(client, '/api/v1/user/', `{"email":${nested(MAX_JSON_DEPTH - 1)}}`);
    expect(atLimit.statusCode).toBe(400);
    expect(atLimit.json().code).toBe('VALIDATION_ERROR');
  });

  it(`refuses an array of more than ${MAX_JSON_ARRAY_ITEMS} items, and counts no bracket or comma inside a string`, async () => {
    const client = new TestClient(ctx.app);
    const items = (n: number) => `[${Array(n).fill('0').join(',')}]`;
    const long = await postRaw(client, '/api/v1/user/', `{"email":${items(MAX_JSON_ARRAY_ITEMS + 1)}}`);
    expect(long.json().code).toBe('BODY_TOO_COMPLEX');
    const atLimit = await postRaw(client, '/api/v1/user/', `{"email":${items(MAX_JSON_ARRAY_ITEMS)}}`);
    expect(atLimit.json().code).toBe('VALIDATION_ERROR');
    expect(
      isJsonWithinLimits(Buffer.from(JSON.stringify({ a: `${'['.repeat(100)}${','.repeat(2000)}"\\` }))),
    ).toBe(true);
    expect(isJsonWithinLimits(Buffer.from(JSON.stringify({ a: [1, [2, [3]], { b: ',' }] })))).toBe(true);
  });
});

describe('request bodies: an unmatched route parses none', () => {
  it('answers an unknown /api path 404 without parsing its body, however malformed or deep', async () => {
    const client = new TestClient(ctx.app);
    for (const payload of ['{"not json', nested(500_000), paddedBody(1024 * 1024 - 10)]) {
      const response = await postRaw(client, '/api/v1/no-such-route', payload);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'NOT_FOUND', message: ERROR_MESSAGES_KO.NOT_FOUND });
    }
    // Over the global limit too: the body is never read, so its size is never judged.
    const huge = await postRaw(client, '/api/v1/no-such-route', paddedBody(2 * 1024 * 1024));
    expect(huge.statusCode).toBe(404);
    const put = await client.request({
      method: 'PUT',
      url: '/api/elsewhere',
      headers: { 'content-type': 'application/json' },
      payload: '{"not json',
    });
    expect(put.statusCode).toBe(404);
  });
});
