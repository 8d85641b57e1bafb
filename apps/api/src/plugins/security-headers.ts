import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Strict CSP with no inline script. ALTCHA solves its proof of work in a worker built from a blob, hence
 * `worker-src blob:`; Turnstile, when configured, needs its own script and frame origin.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const turnstile = config.CAPTCHA_PROVIDER === 'turnstile' ? ['https://challenges.cloudflare.com'] : [];
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
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
      },
    },
    hsts: config.isHttps ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' },
    // The same rule as `frame-ancestors 'none'`, for browsers that only know the older header.
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api')) reply.header('Cache-Control', 'no-store');
  });
}
