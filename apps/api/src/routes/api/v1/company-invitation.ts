import { acceptCompanyInvitationBody, INVITABLE_ROLES } from '@ansim/shared/company-invitations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  acceptCompanyInvitation,
  viewCompanyInvitation,
} from '../../../domain/companies/company-invitations.ts';
import { throttleTokenRequest } from '../../../domain/users/account-throttle.ts';
import { normalizedPath } from '../../../plugins/api-request.ts';
import { getSession, sessionCookie, setSessionCookie } from '../../../plugins/session.ts';
import { errorResponses } from '../../schemas.ts';

const tokenParam = z.object({ token: z.string().min(1).max(100) });

/**
 * The invitee's side of a company invitation (`/join/{token}`): public, the mailed token is the credential.
 * The admin's side (sending invitations) lives with the company settings.
 */
export const companyInvitationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  app.addHook('onSend', async (request, reply) => {
    // The token must not leak to any other site through the Referer header.
    if (normalizedPath(request.url).startsWith('/api/v1/company/invitations/'))
      reply.header('Referrer-Policy', 'no-referrer');
  });

  app.get(
    '/api/v1/company/invitations/:token',
    {
      schema: {
        tags: ['company'],
        summary: 'What a company invitation offers: 404 unknown, 410 used, replaced or expired',
        params: tokenParam,
        response: {
          200: z.object({
            company_name: z.string(),
            email: z.string(),
            role: z.enum(INVITABLE_ROLES),
            has_account: z.boolean(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      await throttleTokenRequest(deps, { addressKey: request.addressKey }, 'company-invitation');
      return viewCompanyInvitation(deps.database, request.params.token);
    },
  );

  app.post(
    '/api/v1/company/invitations/:token/accept',
    {
      schema: {
        tags: ['company'],
        description:
          'A new invitee sends name and password; an existing account must be logged in as the invited address. ' +
          'Answers with a fresh session; a handler then enrols a second factor (403 MFA_ENROLLMENT_REQUIRED).',
        params: tokenParam,
        body: acceptCompanyInvitationBody,
        response: {
          200: z.object({ expires: z.number().int(), role: z.enum(INVITABLE_ROLES) }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      await throttleTokenRequest(deps, { addressKey: request.addressKey }, 'company-invitation');
      const session = await getSession(request);
      const result = await acceptCompanyInvitation(deps, request.params.token, request.body, {
        userId: session?.user.id ?? null,
        previousSessionId: sessionCookie(request),
      });
      setSessionCookie(request, reply, result.sessionId);
      return { expires: result.expires, role: result.role };
    },
  );
};
