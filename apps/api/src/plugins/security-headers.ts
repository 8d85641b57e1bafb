import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.ts';
import { isApiRequest } from './api-request.ts';

/**
 * Strict CSP with no inline script. ALTCHA solves its proof of work in a worker built from a blob, hence
 * `worker-src blob:`; Turnstile, when configured, needs its own script and frame origin. The API docs
 * (swagger-ui) run under the same policy: their scripts are files of our own origin.
 */
function cspDirectives(config: Config): Record<string, string[]> {
  const turnstile = config.CAPTCHA_PROVIDER === 'turnstile' ? ['https://challenges.cloudflare.com'] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...turnstile],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
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
export function baseSecurityHeaders(config: Config): Record<string, string> {
  return {
    'content-security-policy': formatCsp(cspDirectives(config)),
    'permissions-policy': PERMISSIONS_POLICY,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
    ...(config.isHttps ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  // Helmet's middleware, built once: it works out every header's value when it is built. @fastify/helmet built
  // it again on every request (parsing the CSP directives each time), the same headers for more CPU.
  const applyHelmet = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
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
