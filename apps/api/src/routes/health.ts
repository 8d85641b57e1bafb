import { errorResponses } from '@ansim/shared/contract/common';
import { healthStatusSchema as statusSchema } from '@ansim/shared/contract/health';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    { schema: { tags: ['health'], response: { 200: statusSchema, 500: errorResponses[500] } } },
    async () => ({
      status: 'ok',
    }),
  );

  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['health'],
        response: { 200: statusSchema, 500: errorResponses[500], 503: statusSchema },
      },
    },
    async (request, reply) => {
      try {
        await request.server.deps.database.query('SELECT 1');
        return { status: 'ready' };
      } catch {
        return reply.status(503).send({ status: 'database unreachable' });
      }
    },
  );
};
