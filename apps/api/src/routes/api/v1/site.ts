import { siteInfoSchema } from '@ansim/shared/contract/site';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../schemas.ts';

/** Public: the operator's name and contact are what every visitor must be able to read before trusting it. */
export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/site/',
    {
      schema: {
        tags: ['site'],
        summary: 'Who operates the service (OPERATOR_NAME, OPERATOR_CONTACT)',
        response: { 200: siteInfoSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { OPERATOR_NAME, OPERATOR_CONTACT } = request.server.deps.config;
      return { operator_name: OPERATOR_NAME, operator_contact: OPERATOR_CONTACT };
    },
  );
};
