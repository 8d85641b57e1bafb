import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_ONLY_HEADERS } from '../src/app.ts';
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

  it('serves hashed assets precompressed with long caching', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toContain('immutable');
    // A script keeps what protects a script, and drops what only a document reads.
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(response.headers['content-security-policy']).toContain("worker-src 'self' blob:");
    for (const name of DOCUMENT_ONLY_HEADERS) expect(response.headers[name], name).toBeUndefined();
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
