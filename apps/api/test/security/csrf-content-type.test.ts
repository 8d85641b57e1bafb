import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  type RegisteredRoute,
  registerAndLogin,
  registeredRoutes,
  type TestClient,
  type TestContext,
} from '../helpers.ts';

let ctx: TestContext;
let reporter: TestClient;
let unsafeRoutes: RegisteredRoute[];

const SOME_ID = '3f1c9a52-7d4e-4b8a-9c2f-0e6d5b4a3c21';

/** A concrete URL for a route pattern: every path parameter filled with a well-formed id. */
function concrete(url: string): string {
  return url.replace(/:\w+/g, SOME_ID).replace(/\/\*$/, '/x');
}

beforeAll(async () => {
  ctx = await createTestApp();
  reporter = await registerAndLogin(ctx, 'csrf-reporter@example.com');
  unsafeRoutes = registeredRoutes(ctx.app).filter((route) => !['GET', 'OPTIONS'].includes(route.method));
});
afterAll(() => ctx.close());

describe('security: CSRF and content types', () => {
  it('refuses a missing or mismatched CSRF token and a cross-site Origin on every unsafe route with 403', async () => {
    // The enumeration itself must see the routes that matter, or the loop below proves nothing.
    expect(unsafeRoutes.length).toBeGreaterThanOrEqual(18);
    expect(unsafeRoutes).toEqual(
      expect.arrayContaining([
        { method: 'POST', url: '/api/v1/token' },
        { method: 'DELETE', url: '/api/v1/token' },
        { method: 'PATCH', url: '/api/v1/manager/report/:id' },
        { method: 'DELETE', url: '/api/v1/file/:id' },
      ]),
    );
    const session = reporter.cookies.get('sessionid')!;
    const token = reporter.cookies.get('csrftoken')!;
    const attempts: [string, Record<string, string>, Record<string, string>][] = [
      ['no cookie, no header', { sessionid: session }, {}],
      ['cookie without header', { sessionid: session, csrftoken: token }, {}],
      ['header without cookie', { sessionid: session }, { 'x-csrftoken': token }],
      ['mismatched header', { sessionid: session, csrftoken: token }, { 'x-csrftoken': 'x'.repeat(43) }],
      [
        'cross-site Origin',
        { sessionid: session, csrftoken: token },
        { 'x-csrftoken': token, origin: 'https://evil.example' },
      ],
      ['opaque Origin', { sessionid: session, csrftoken: token }, { 'x-csrftoken': token, origin: 'null' }],
      [
        'look-alike Origin',
        { sessionid: session, csrftoken: token },
        { 'x-csrftoken': token, origin: 'http://localhost.evil.example' },
      ],
    ];
    for (const route of unsafeRoutes) {
      for (const [label, cookies, headers] of attempts) {
        const response = await ctx.app.inject({
          method: route.method as 'POST',
          url: concrete(route.url),
          cookies,
          headers: { ...headers, 'content-type': 'application/json' },
          payload: '{}',
          remoteAddress: reporter.ip,
        });
        expect(response.statusCode, `${route.method} ${route.url}: ${label}`).toBe(403);
        expect(response.json().code, `${route.method} ${route.url}: ${label}`).toBe('CSRF_FAILED');
      }
    }
    // Still logged in: none of the refused calls (logout among them) did anything.
    expect((await reporter.get('/api/v1/token/')).statusCode).toBe(200);
  });

  it('refuses text/plain and form-encoded bodies on every JSON route with 415', async () => {
    const bodies: [string, string][] = [
      ['text/plain', '{"email":"a@b.co","password":"x"}'],
      ['text/plain;charset=UTF-8', '{"email":"a@b.co"}'],
      ['application/x-www-form-urlencoded', 'email=a%40b.co&password=x'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n',
      ],
    ];
    const jsonRoutes = unsafeRoutes.filter(
      (route) => !(route.method === 'POST' && route.url === '/api/v1/file'),
    );
    for (const route of jsonRoutes) {
      for (const [contentType, payload] of bodies) {
        const response = await reporter.request({
          method: route.method as 'POST',
          url: concrete(route.url),
          headers: { 'content-type': contentType },
          payload,
        });
        expect(response.statusCode, `${route.method} ${route.url} as ${contentType}`).toBe(415);
        expect(response.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
      }
    }
    // The upload route takes multipart only: a text or form body is 415 there too.
    for (const [contentType, payload] of bodies.slice(0, 3)) {
      const upload = await reporter.request({
        method: 'POST',
        url: '/api/v1/file/',
        headers: { 'content-type': contentType },
        payload,
      });
      expect(upload.statusCode, `upload as ${contentType}`).toBe(415);
    }
    expect((await reporter.get('/api/v1/token/')).statusCode).toBe(200);
  });
});
