import {
  acknowledgeResponse,
  invitationParams,
  invitationViewSchema,
} from '@ansim/shared/contract/invitation';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { acknowledgeInvitation, viewInvitation } from '../../../domain/invitations/view-invitation.ts';
import { normalizedPath } from '../../../plugins/api-request.ts';
import { loadInvitee, requireInvitee } from '../../../plugins/invitee.ts';
import { errorResponses } from '../../schemas.ts';

/** What an invitee's page asks the API, with no account: the token is the only credential. */
export const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  app.addHook('onSend', async (request, reply) => {
    // The token must not leak to any other site through the Referer header.
    if (normalizedPath(request.url).startsWith('/api/v1/invitation'))
      reply.header('Referrer-Policy', 'no-referrer');
  });

  app.get(
    '/api/v1/invitation/:token',
    {
      schema: {
        tags: ['invitation'],
        params: invitationParams,
        response: { 200: invitationViewSchema, ...errorResponses },
      },
    },
    async (request) => viewInvitation(deps.database, request.params.token),
  );

  app.post(
    '/api/v1/invitation/acknowledge',
    {
      schema: { tags: ['invitation'], response: { 200: acknowledgeResponse, ...errorResponses } },
      preHandler: loadInvitee,
    },
    async (request) => acknowledgeInvitation(deps.database, requireInvitee(request)),
  );
};
