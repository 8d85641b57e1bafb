import { SESSION_EXPIRES_HEADER } from '@ansim/shared/constants';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type ActiveSession, findSession } from '../domain/sessions/sessions.ts';
import { AppError } from '../lib/app-error.ts';
import { cookieNames } from './cookie-names.ts';
import { rotateCsrfCookie } from './csrf.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The caller's session as `getSession` looked it up, kept for the rest of the request; null until something
     * asks. A pending lookup, not its result, so two readers in one request share one query.
     */
    session: Promise<ActiveSession | null> | null;
  }
}

/** The session id the caller sent (`sessionid`, or `__Host-sessionid` under https). */
export function sessionCookie(request: FastifyRequest): string | undefined {
  return request.cookies[cookieNames(request.server.deps.config).session];
}

/** The caller's session, read once per request from the session cookie. */
export function getSession(request: FastifyRequest): Promise<ActiveSession | null> {
  if (!request.session) {
    const id = sessionCookie(request);
    const { database, config } = request.server.deps;
    request.session = id && id.length <= 64 ? findSession(database, id, config) : Promise.resolve(null);
  }
  return request.session;
}

export async function requireSession(request: FastifyRequest): Promise<ActiveSession> {
  const session = await getSession(request);
  if (!session) throw new AppError('UNAUTHORIZED');
  return session;
}

/**
 * The caller's session, looked up without sliding it: no write to the session's row, and no expiry header (the
 * expiry did not move). For requests that must leave no time behind in the member's session, such as starting
 * an anonymous draft.
 */
export async function requireSessionUntouched(request: FastifyRequest): Promise<ActiveSession> {
  const id = sessionCookie(request);
  const { database, config } = request.server.deps;
  const session = id && id.length <= 64 ? await findSession(database, id, config, { touch: false }) : null;
  if (!session) throw new AppError('UNAUTHORIZED');
  return session;
}

/**
 * Opens the session in the browser. The CSRF token is replaced at the same moment, so a token planted or read
 * before login is worthless after it.
 */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, id: string): void {
  rotateCsrfCookie(request, reply);
  reply.setCookie(cookieNames(request.server.deps.config).session, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.server.deps.config.isHttps,
    maxAge: request.server.deps.config.SESSION_ABSOLUTE_SECONDS,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(cookieNames(request.server.deps.config).session, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.server.deps.config.isHttps,
  });
}

/**
 * Puts `request.session` on every request. Every answer to a request that looked at its session says when that
 * session now ends, so the client's idea of the expiry slides with the server's instead of being read once at
 * page load. Requests that never read the session (public pages, static files) cost no extra query.
 */
export const sessionPlugin = fp(
  async (app) => {
    app.decorateRequest('session', null);
    app.addHook('onSend', async (request, reply, payload) => {
      if (!request.session) return payload;
      const session = await request.session.catch(() => null);
      if (session) reply.header(SESSION_EXPIRES_HEADER, String(session.expires));
      return payload;
    });
  },
  { name: 'session', dependencies: ['@fastify/cookie'] },
);
