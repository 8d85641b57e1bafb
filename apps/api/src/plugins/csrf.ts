import { CSRF_HEADER } from '@ansim/shared/constants';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { AppError } from '../lib/app-error.ts';
import { randomToken, safeEqual } from '../lib/tokens.ts';
import { isApiRequest } from './api-request.ts';
import { cookieNames } from './cookie-names.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

function isSameOrigin(request: FastifyRequest, origin: string, config: Config): boolean {
  if (origin === new URL(config.PUBLIC_URL).origin) return true;
  // Like Django: the request's own host is same-origin too, so a deployment reached under another name works.
  return origin === `${request.protocol}://${request.host}`;
}

function setCsrfCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  const { config } = request.server.deps;
  // `__Host-` demands Secure, Path=/ and no Domain: exactly these options under https.
  reply.setCookie(cookieNames(config).csrf, token, {
    path: '/',
    sameSite: 'lax',
    secure: config.isHttps,
    httpOnly: false,
    maxAge: 365 * 24 * 3600,
  });
}

/** A fresh CSRF token, e.g. at login: whatever token the browser held before is no longer accepted. */
export function rotateCsrfCookie(request: FastifyRequest, reply: FastifyReply): void {
  setCsrfCookie(request, reply, randomToken());
}

/**
 * Double-submit CSRF check (R-SEC-2): every unsafe method the API answers must echo the CSRF cookie in
 * `X-CSRFToken`, and a browser-sent Origin must be our own. Session cookies are SameSite=Lax as well.
 * "The API" is decided by the matched route or the decoded path, never by the raw URL's spelling.
 */
export const csrfPlugin = fp(
  async (app) => {
    const { config } = app.deps;
    const names = cookieNames(config);
    app.get('/api/csrf', { schema: { hide: true } }, async (request, reply) => {
      const existing = request.cookies[names.csrf];
      setCsrfCookie(request, reply, existing && /^[\w-]{43}$/.test(existing) ? existing : randomToken());
      return reply.status(204).send();
    });

    app.addHook('onRequest', async (request) => {
      if (SAFE_METHODS.has(request.method) || !isApiRequest(request)) return;
      const origin = request.headers.origin;
      if (origin !== undefined && !isSameOrigin(request, origin, config)) throw new AppError('CSRF_FAILED');
      const cookie = request.cookies[names.csrf];
      const header = request.headers[CSRF_HEADER.toLowerCase()];
      if (!cookie || typeof header !== 'string' || !safeEqual(cookie, header))
        throw new AppError('CSRF_FAILED');
    });
  },
  { name: 'csrf', dependencies: ['@fastify/cookie'] },
);
