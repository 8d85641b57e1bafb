import { altchaChallengeSchema } from '@ansim/shared/contract/captcha';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { useSmallBodies } from '../../../plugins/body-limits.ts';
import { errorResponses } from '../../schemas.ts';

export const captchaRoutes: FastifyPluginAsyncZod = async (app) => {
  // A login, a code, a receipt or a captcha solution: a few KB at most (docs/decisions/0031).
  useSmallBodies(app);
  app.get(
    '/api/v1/captcha/challenge',
    {
      schema: {
        tags: ['auth'],
        summary: 'ALTCHA challenge for the login form',
        response: { 200: altchaChallengeSchema, ...errorResponses },
      },
    },
    async (_request, reply) => {
      const challenge = await app.captcha.createChallenge();
      if (!challenge)
        return reply
          .status(404)
          .send({ code: 'NOT_FOUND', message: '이 서버는 ALTCHA를 사용하지 않습니다.' });
      return challenge;
    },
  );
};
