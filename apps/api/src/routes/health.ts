import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const statusSchema = z.object({ status: z.string() });

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/health', { schema: { tags: ['health'], response: { 200: statusSchema } } }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/api/ready',
    { schema: { tags: ['health'], response: { 200: statusSchema, 503: statusSchema } } },
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
