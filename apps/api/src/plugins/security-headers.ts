import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.ts';
import { isApiRequest } from './api-request.ts';

/** Origins the analytics client of the web build talks to: none unless the build carries a PostHog key. */
export interface AnalyticsOrigins {
  connect: string[];
  script: string[];
}
const NO_ANALYTICS: AnalyticsOrigins = { connect: [], script: [] };

/**
 * What the web build says of its analytics: `apps/web/scripts/build.mjs` writes `.vite/analytics.json` with
 * the PostHog host the client was built with, and a null host when the build has no key (the client then
 * loads no analytics at all). The server reads the build, not its own environment, because VITE_ variables
 * exist only where the client was built. PostHog's cloud hosts serve their scripts from a sibling
 * `-assets` host, which is allowed beside them.
 */
export function analyticsOrigins(webDist: string): AnalyticsOrigins {
  let host: unknown;
  try {
    host = JSON.parse(fs.readFileSync(path.join(webDist, '.vite', 'analytics.json'), 'utf8')).host;
  } catch {
    return NO_ANALYTICS;
  }
  if (typeof host !== 'string') return NO_ANALYTICS;
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    return NO_ANALYTICS;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return NO_ANALYTICS;
  const cloud = /^(eu|us)\.i\.posthog\.com$/.exec(url.hostname);
  const assets = cloud ? [`https://${cloud[1]}-assets.i.posthog.com`] : [];
  return { connect: [url.origin], script: [url.origin, ...assets] };
}

/**
 * Strict CSP with no inline script. ALTCHA solves its proof of work in a worker built from a blob, hence
 * `worker-src blob:`; Turnstile, when configured, needs its own script and frame origin. The API docs
 * (swagger-ui) run under the same policy: their scripts are files of our own origin.
 */
function cspDirectives(config: Config, analytics: AnalyticsOrigins = NO_ANALYTICS): Record<string, string[]> {
  const turnstile = config.CAPTCHA_PROVIDER === 'turnstile' ? ['https://challenges.cloudflare.com'] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...turnstile, ...analytics.script],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...analytics.connect],
    workerSrc: ["'self'", 'blob:'],
    frameSrc: turnstile.length ? turnstile : ["'none'"],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    ...(config.isHttps ? { upgradeInsecureRequests: [] } : {}),
  };
}

/**
 * Browser features the product never uses are switched off for every page, so injected or third-party code
 * could not reach the camera, microphone or location either. Passkeys (WebAuthn) stay allowed for our origin.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'bluetooth=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-create=(self)',
  'publickey-credentials-get=(self)',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

function formatCsp(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) =>
      [name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`), ...values].join(' '),
    )
    .join(';');
}

/**
 * The headers of an answer Fastify writes before any hook runs (a URL that does not decode): the same policy
 * as every other answer, set by hand.
 */
export function baseSecurityHeaders(
  config: Config,
  analytics: AnalyticsOrigins = NO_ANALYTICS,
): Record<string, string> {
  return {
    'content-security-policy': formatCsp(cspDirectives(config, analytics)),
    'permissions-policy': PERMISSIONS_POLICY,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
    ...(config.isHttps ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: Config,
  analytics: AnalyticsOrigins = NO_ANALYTICS,
): Promise<void> {
  // Helmet's middleware, built once: it works out every header's value when it is built. @fastify/helmet built
  // it again on every request (parsing the CSP directives each time), the same headers for more CPU.
  const applyHelmet = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config, analytics) },
    hsts: config.isHttps ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' },
    // The same rule as `frame-ancestors 'none'`, for browsers that only know the older header.
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
    applyHelmet(request.raw, reply.raw, done as (error?: unknown) => void);
  });
  app.addHook('onSend', async (request, reply) => {
    if (isApiRequest(request)) reply.header('Cache-Control', 'no-store');
  });
}
