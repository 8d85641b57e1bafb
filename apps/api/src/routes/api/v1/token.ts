import { loginBody } from '@ansim/shared/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deleteSession } from '../../../domain/sessions/sessions.ts';
import { login } from '../../../domain/users/login.ts';
import {
  clearSessionCookie,
  requireSession,
  sessionCookie,
  setSessionCookie,
} from '../../../plugins/session.ts';
import { errorResponses } from '../../schemas.ts';

const expiresResponse = z.object({ expires: z.number().int().describe('epoch seconds') });

export const tokenRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.post(
    '/api/v1/token/',
    { schema: { tags: ['auth'], body: loginBody, response: { 200: expiresResponse, ...errorResponses } } },
    async (request, reply) => {
      const result = await login(deps, request.body, {
        ip: request.ip,
        previousSessionId: sessionCookie(request),
      });
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
