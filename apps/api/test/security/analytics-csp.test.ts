import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyticsOrigins } from '../../src/plugins/security-headers.ts';
import { createTestApp, type TestContext } from '../helpers.ts';

/** A web build's dist folder with only what the CSP reads: `.vite/analytics.json` (apps/web/scripts/build.mjs). */
function webDistWith(analytics: { host: string | null } | null): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-web-dist-'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  if (analytics) {
    fs.mkdirSync(path.join(dist, '.vite'));
    fs.writeFileSync(path.join(dist, '.vite', 'analytics.json'), JSON.stringify(analytics));
  }
  return dist;
}

const directive = (csp: string, name: string) =>
  csp
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `)) ?? '';

const contexts: TestContext[] = [];
afterAll(async () => {
  for (const ctx of contexts) await ctx.close();
});

async function cspOf(webDist: string): Promise<string> {
  const ctx = await createTestApp({ config: { WEB_DIST: webDist } });
  contexts.push(ctx);
  const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/user/' });
  return String(response.headers['content-security-policy']);
}

describe('security: the CSP and the analytics the web build carries', () => {
  it('lets the client send to the PostHog host it was built with, and load its scripts', async () => {
    const csp = await cspOf(webDistWith({ host: 'https://eu.i.posthog.com' }));
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' https://eu.i.posthog.com");
    expect(directive(csp, 'script-src')).toBe(
      "script-src 'self' https://eu.i.posthog.com https://eu-assets.i.posthog.com",
    );
  });

  it('allows a self-hosted PostHog by its origin only', () => {
    expect(analyticsOrigins(webDistWith({ host: 'https://stats.example.com/ingest' }))).toEqual({
      connect: ['https://stats.example.com'],
      script: ['https://stats.example.com'],
    });
  });

  it("allows only 'self' when the build has no analytics key, or says nothing of analytics", async () => {
    for (const webDist of [webDistWith({ host: null }), webDistWith(null)]) {
      const csp = await cspOf(webDist);
      expect(directive(csp, 'connect-src')).toBe("connect-src 'self'");
      expect(directive(csp, 'script-src')).toBe("script-src 'self'");
    }
    expect(analyticsOrigins(webDistWith({ host: 'javascript:alert(1)' }))).toEqual({
      connect: [],
      script: [],
    });
  });
});
