import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../src/app.ts';
import { createTestDatabase, STRONG_PASSWORD, solveCaptcha, TestClient, testConfig } from './helpers.ts';

describe('Turnstile', () => {
  let verifier: http.Server;
  const seen: string[] = [];

  beforeAll(async () => {
    // A stand-in for Cloudflare's siteverify: accepts the response "good-token" once.
    verifier = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        seen.push(body);
        const params = new URLSearchParams(body);
        const success =
          params.get('response') === 'good-token' && params.get('secret') === 'turnstile-secret';
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ success }));
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => verifier.close(() => resolve())));

  it('asks the configured verifier, refuses a bad token, and never sends the client address', async () => {
    const database = await createTestDatabase();
    const { port } = verifier.address() as AddressInfo;
    const config = testConfig({
      TURNSTILE_SITE_KEY: 'site-key',
      TURNSTILE_SECRET_KEY: 'turnstile-secret',
      TURNSTILE_VERIFY_URL: `http://127.0.0.1:${port}/siteverify`,
    });
    const app = await buildApp({ config, database });
    try {
      expect(config.CAPTCHA_PROVIDER).toBe('turnstile');
      expect((await app.inject({ method: 'GET', url: '/api/v1/captcha/challenge' })).statusCode).toBe(404);
      const client = new TestClient(app);
      const bad = await client.post('/api/v1/token/', {
        email: 'x@example.com',
        password: 'whatever-123',
        captcha: 'bad-token',
      });
      expect(bad.json().code).toBe('CAPTCHA_FAILED');
      const good = await client.post('/api/v1/token/', {
        email: 'x@example.com',
        password: 'whatever-123',
        captcha: 'good-token',
      });
      // Past the captcha, the unknown account is the ordinary credentials error.
      expect(good.json().code).toBe('INVALID_CREDENTIALS');
      expect(seen.length).toBe(2);
      expect(seen.every((body) => !body.includes('remoteip'))).toBe(true);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('logs', () => {
  it('never contain passwords, tokens, cookies, bodies or client addresses', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    const database = await createTestDatabase();
    const config = testConfig({ LOG_LEVEL: 'info' });
    const options = loggerOptions(config) as Record<string, unknown>;
    const app = await buildApp({ config, database, logger: { ...options, stream } as never });
    try {
      const client = new TestClient(app, '198.51.100.77');
      await client.post('/api/v1/user/', {
        email: 'log-sentinel@example.com',
        password: STRONG_PASSWORD,
        name: 'SENTINEL이름',
      });
      await client.post('/api/v1/token/', {
        email: 'log-sentinel@example.com',
        password: 'PASSWORD-SENTINEL-123',
        captcha: await solveCaptcha(app),
      });
      await client.post('/api/v1/user/email/confirm-email', { token: 'TOKEN-SENTINEL-abcdef' });
      await client.get('/api/v1/invitation/INVITE-SENTINEL-TOKEN');
      await client.get('/api/v1/token/?secret=QUERY-SENTINEL');
      const text = lines.join('');
      expect(text.length).toBeGreaterThan(0);
      for (const sentinel of [
        STRONG_PASSWORD,
        'PASSWORD-SENTINEL-123',
        'TOKEN-SENTINEL',
        'INVITE-SENTINEL-TOKEN',
        'QUERY-SENTINEL',
        'SENTINEL이름',
        'log-sentinel@example.com',
        '198.51.100.77',
        client.cookies.get('csrftoken')!,
      ]) {
        expect(text.includes(sentinel), `log holds ${sentinel}`).toBe(false);
      }
      expect(text).toContain('/api/v1/invitation/:token');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
