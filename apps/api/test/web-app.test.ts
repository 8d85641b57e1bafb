import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_ONLY_HEADERS, WORKER_ONLY_HEADERS, WORKER_SCRIPT_PREFIX } from '../src/app.ts';
import { createTestApp, type TestContext } from './helpers.ts';

let ctx: TestContext;
let webDist: string;

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-web-'));
  fs.mkdirSync(path.join(webDist, 'assets'));
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><html lang="ko"><title>안심신고</title></html>',
  );
  const script = 'console.log("app");'.repeat(50);
  fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), script);
  fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js.br'), zlib.brotliCompressSync(script));
  fs.writeFileSync(
    path.join(webDist, 'assets', `${WORKER_SCRIPT_PREFIX}sha-abc123.js`),
    'onmessage = () => {};',
  );
  // The route patterns the web build lists (apps/web/vite.config.ts).
  fs.mkdirSync(path.join(webDist, '.vite'));
  fs.writeFileSync(
    path.join(webDist, '.vite', 'routes.json'),
    JSON.stringify(['/', '/login', '/dashboard', '/report/t/a', '/manager/detail/:id']),
  );
  ctx = await createTestApp({ config: { WEB_DIST: webDist } });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('serving the web client', () => {
  it('answers client routes with index.html so the router can take them', async () => {
    for (const url of ['/', '/dashboard', '/report/t/a', '/manager/detail/42?x=1']) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<title>안심신고</title>');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('answers an address the client has no page for 404, with the app that draws its not-found page', async () => {
    for (const url of ['/no-such-page', '/manager/detail', '/manager/detail/42/more', '/dashboard/x']) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<title>안심신고</title>');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    }
    const trailing = await ctx.app.inject({ method: 'GET', url: '/dashboard/' });
    expect(trailing.statusCode).toBe(200);
  });

  it('serves hashed assets precompressed with long caching', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toContain('immutable');
    // A script keeps what protects a script, and drops what only a document (or a worker) reads.
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    for (const name of [...DOCUMENT_ONLY_HEADERS, ...WORKER_ONLY_HEADERS])
      expect(response.headers[name], name).toBeUndefined();
    // An immutable file is never revalidated: validators and ranges would be bytes for nothing.
    for (const name of ['etag', 'last-modified', 'accept-ranges'])
      expect(response.headers[name], name).toBeUndefined();
  });

  it("keeps the CSP on a worker script, which runs under its own response's policy", async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/assets/${WORKER_SCRIPT_PREFIX}sha-abc123.js`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toContain("worker-src 'self' blob:");
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-frame-options']).toBeUndefined();
  });

  it('lets the page itself be revalidated', async () => {
    const first = await ctx.app.inject({ method: 'GET', url: '/dashboard' });
    expect(first.headers.etag).toBeDefined();
    const again = await ctx.app.inject({
      method: 'GET',
      url: '/dashboard',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('keeps every document header on the page itself', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/login' });
    expect(response.statusCode).toBe(200);
    for (const name of ['permissions-policy', 'x-frame-options', 'cross-origin-opener-policy'])
      expect(response.headers[name], name).toBeDefined();
  });

  it('keeps unknown API paths as JSON 404s', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/unknown' });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('NOT_FOUND');
    const post = await ctx.app.inject({ method: 'POST', url: '/somewhere' });
    expect(post.statusCode).toBe(404);
  });
});
