import { CSRF_COOKIE, CSRF_HEADER } from '@ansim/shared/constants';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../lib/app-error.ts';
import { randomToken, safeEqual } from '../lib/tokens.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

function isSameOrigin(request: FastifyRequest, origin: string, config: Config): boolean {
  if (origin === new URL(config.PUBLIC_URL).origin) return true;
  // Like Django: the request's own host is same-origin too, so a deployment reached under another name works.
  return origin === `${request.protocol}://${request.host}`;
}

/**
 * Double-submit CSRF check (DESIGN §4): every unsafe method under /api must echo the `csrftoken` cookie in
 * `X-CSRFToken`, and a browser-sent Origin must be our own. Session cookies are SameSite=Lax as well.
 */
export function registerCsrf(app: FastifyInstance, config: Config): void {
  app.get('/api/csrf', { schema: { hide: true } }, async (request, reply) => {
    const existing = request.cookies[CSRF_COOKIE];
    const token = existing && /^[\w-]{43}$/.test(existing) ? existing : randomToken();
    reply.setCookie(CSRF_COOKIE, token, {
      path: '/',
      sameSite: 'lax',
      secure: config.isHttps,
      httpOnly: false,
      maxAge: 365 * 24 * 3600,
    });
    return reply.status(204).send();
  });

  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
    const origin = request.headers.origin;
    if (origin !== undefined && !isSameOrigin(request, origin, config)) throw new AppError('CSRF_FAILED');
    const cookie = request.cookies[CSRF_COOKIE];
    const header = request.headers[CSRF_HEADER.toLowerCase()];
    if (!cookie || typeof header !== 'string' || !safeEqual(cookie, header))
      throw new AppError('CSRF_FAILED');
  });
}
