import {
  intakeBody,
  intakeInfoSchema,
  intakeParams,
  intakeSessionSchema as intakeSession,
} from '@ansim/shared/contract/intake';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  companyName,
  createIntakeSession,
  createPublicIntakeSession,
  findCompanyByIntakeCode,
} from '../../../domain/intake/intake-sessions.ts';
import { AppError } from '../../../lib/app-error.ts';
import { useSmallBodies } from '../../../plugins/body-limits.ts';
import { requireSessionUntouched } from '../../../plugins/session.ts';
import { errorResponses } from '../../schemas.ts';

/**
 * Anonymous drafts (docs/decisions/0005). Through a company's public intake link anyone may start one; a
 * logged-in member may start one for their own company. Either way only the company is recorded.
 */
export const intakeRoutes: FastifyPluginAsyncZod = async (app) => {
  // A login, a code, a receipt or a captcha solution: a few KB at most (docs/decisions/0031).
  useSmallBodies(app);
  const { deps } = app;

  app.get(
    '/api/v1/intake/:code',
    {
      schema: {
        tags: ['intake'],
        summary: "A company's public intake page",
        params: intakeParams,
        response: { 200: intakeInfoSchema, ...errorResponses },
      },
    },
    async (request) => {
      const company = await findCompanyByIntakeCode(deps, request.params.code, {
        visitorKey: request.visitorKey,
      });
      return {
        company: { name: company.name },
        help_text: company.helpText,
        notice_contact: company.noticeContact,
      };
    },
  );

  app.post(
    '/api/v1/intake/',
    {
      schema: {
        tags: ['intake'],
        summary: 'Start an anonymous draft',
        body: intakeBody,
        response: { 201: intakeSession, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { code, captcha } = request.body;
      if (code) {
        const session = await createPublicIntakeSession(deps, code, captcha, {
          visitorKey: request.visitorKey,
        });
        return reply.status(201).send({
          token: session.token,
          expires: session.expires,
          company: { name: session.company.name },
        });
      }
      // Read without sliding the member's session: its last-seen time must not mark when the draft began.
      const { user } = await requireSessionUntouched(request);
      if (!user.companyId) throw new AppError('NO_COMPANY');
      const session = await createIntakeSession(deps.database, user.companyId);
      return reply.status(201).send({
        ...session,
        company: { name: await companyName(deps.database, user.companyId) },
      });
    },
  );
};
