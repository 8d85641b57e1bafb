import {
  sessionExpiresResponse as expiresResponse,
  loginBody,
  loginResponse,
  mfaLoginBody,
  passkeyLoginBody,
  passkeyOptionsResponse,
} from '@ansim/shared/contract/token';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHALLENGE_SECONDS } from '../../../domain/mfa/challenges.ts';
import {
  completeLoginWithCode,
  completeLoginWithPasskey,
  loginPasskeyOptions,
} from '../../../domain/mfa/mfa-login.ts';
import { deleteSession } from '../../../domain/sessions/sessions.ts';
import { login } from '../../../domain/users/login.ts';
import { useSmallBodies } from '../../../plugins/body-limits.ts';
import { cookieNames } from '../../../plugins/cookie-names.ts';
import {
  clearSessionCookie,
  requireSession,
  sessionCookie,
  setSessionCookie,
} from '../../../plugins/session.ts';
import { errorResponses } from '../../schemas.ts';

// The challenge cookie lives as long as the challenge. Path `/`, not the second-factor routes alone: it takes
// the `__Host-` prefix under https like the session cookie (docs/decisions/0006), and that prefix demands `/`.
const CHALLENGE_COOKIE_PATH = '/';
const challengeCookie = (request: FastifyRequest) => cookieNames(request.server.deps.config).mfaChallenge;

function setChallengeCookie(request: FastifyRequest, reply: FastifyReply, id: string): void {
  reply.setCookie(challengeCookie(request), id, {
    path: CHALLENGE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.server.deps.config.isHttps,
    maxAge: CHALLENGE_SECONDS,
  });
}

function clearChallengeCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(challengeCookie(request), {
    path: CHALLENGE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.server.deps.config.isHttps,
  });
}

const mfaClient = (request: FastifyRequest) => ({
  addressKey: request.addressKey,
  challengeId: request.cookies[challengeCookie(request)],
});

export const tokenRoutes: FastifyPluginAsyncZod = async (app) => {
  // A login, a code, a receipt or a captcha solution: a few KB at most (docs/decisions/0031).
  useSmallBodies(app);
  const { deps } = app;

  app.post(
    '/api/v1/token/',
    {
      schema: {
        tags: ['auth'],
        body: loginBody,
        response: { 200: loginResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await login(deps, request.body, {
        addressKey: request.addressKey,
        previousSessionId: sessionCookie(request),
      });
      if ('mfaChallengeId' in result) {
        // The old session (if any) was deleted; its cookie goes too, so the half-logged-in client has none.
        if (sessionCookie(request)) clearSessionCookie(request, reply);
        setChallengeCookie(request, reply, result.mfaChallengeId);
        return { mfa_required: true as const };
      }
      setSessionCookie(request, reply, result.sessionId);
      return { expires: result.expires };
    },
  );

  app.post(
    '/api/v1/token/mfa',
    {
      schema: {
        tags: ['auth'],
        description: 'Second step of a login: a TOTP code or a recovery code.',
        body: mfaLoginBody,
        response: { 200: expiresResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await completeLoginWithCode(deps, mfaClient(request), request.body.code);
      clearChallengeCookie(request, reply);
      setSessionCookie(request, reply, result.sessionId);
      return { expires: result.expires };
    },
  );

  app.post(
    '/api/v1/token/mfa/passkey/options',
    {
      schema: {
        tags: ['auth'],
        description: 'Second step of a login with a passkey: options for navigator.credentials.get().',
        response: { 200: passkeyOptionsResponse, ...errorResponses },
      },
    },
    async (request) => loginPasskeyOptions(deps, mfaClient(request)) as never,
  );

  app.post(
    '/api/v1/token/mfa/passkey/verify',
    {
      schema: {
        tags: ['auth'],
        description: "Second step of a login with a passkey: the authenticator's answer.",
        body: passkeyLoginBody,
        response: { 200: expiresResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await completeLoginWithPasskey(deps, mfaClient(request), request.body.response as never);
      clearChallengeCookie(request, reply);
      setSessionCookie(request, reply, result.sessionId);
      return { expires: result.expires };
    },
  );

  app.get(
    '/api/v1/token/',
    { schema: { tags: ['auth'], response: { 200: expiresResponse, ...errorResponses } } },
    async (request) => {
      const session = await requireSession(request);
      return { expires: session.expires };
    },
  );

  app.delete(
    '/api/v1/token/',
    { schema: { tags: ['auth'], response: { 204: z.undefined(), ...errorResponses } } },
    async (request, reply) => {
      const id = sessionCookie(request);
      if (id) await deleteSession(deps.database, id);
      clearSessionCookie(request, reply);
      return reply.status(204).send();
    },
  );
};
