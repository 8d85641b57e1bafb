import { emailOnlyBody, registerBody, resetPasswordBody, tokenBody } from '@ansim/shared/auth';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companies, users } from '../../../db/schema.ts';
import {
  dismissPendingReceipts,
  listPendingReceipts,
} from '../../../domain/reports/unlink-anonymous-reports.ts';
import {
  confirmEmail,
  registerUser,
  requestPasswordReset,
  resendConfirmation,
  resetPassword,
} from '../../../domain/users/accounts.ts';
import { AppError } from '../../../lib/app-error.ts';
import { requireSession } from '../../../plugins/session.ts';
import { errorResponses } from '../../schemas.ts';

const accepted = z.object({ detail: z.string() });
const ACCEPTED_DETAIL = '요청을 받았습니다. 이메일을 확인해주세요.';

const currentUser = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: z.enum(['member', 'manager']),
  company: z.object({ id: z.uuid(), name: z.string() }).nullable(),
});

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.post(
    '/api/v1/user/',
    { schema: { tags: ['user'], body: registerBody, response: { 201: accepted, ...errorResponses } } },
    async (request, reply) => {
      await registerUser(deps, request.body, { ip: request.ip });
      return reply.status(201).send({ detail: ACCEPTED_DETAIL });
    },
  );

  app.get(
    '/api/v1/user/',
    { schema: { tags: ['user'], response: { 200: currentUser, ...errorResponses } } },
    async (request) => {
      const session = await requireSession(request);
      const [row] = await deps.database.db
        .select({
          id: users.id,
          email: users.email,
          name: users.name,
          role: users.role,
          companyId: companies.id,
          companyName: companies.name,
        })
        .from(users)
        .leftJoin(companies, eq(companies.id, users.companyId))
        .where(eq(users.id, session.user.id));
      if (!row) throw new AppError('USER_NOT_FOUND');
      return {
        id: row.id,
        email: row.email,
        name: row.name,
        role: row.role,
        company: row.companyId && row.companyName ? { id: row.companyId, name: row.companyName } : null,
      };
    },
  );

  app.get(
    '/api/v1/user/pending-receipts',
    {
      schema: {
        tags: ['user'],
        summary: 'Receipts of anonymous reports filed before they became unlinkable, shown once',
        response: {
          200: z.array(z.object({ case_number: z.string(), receipt: z.string(), created_at: z.string() })),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return listPendingReceipts(deps.database, session.user.id);
    },
  );

  app.delete(
    '/api/v1/user/pending-receipts',
    { schema: { tags: ['user'], response: { 204: z.undefined(), ...errorResponses } } },
    async (request, reply) => {
      const session = await requireSession(request);
      await dismissPendingReceipts(deps.database, session.user.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/user/email/register',
    { schema: { tags: ['user'], body: emailOnlyBody, response: { 202: accepted, ...errorResponses } } },
    async (request, reply) => {
      await resendConfirmation(deps, request.body.email, { ip: request.ip });
      return reply.status(202).send({ detail: ACCEPTED_DETAIL });
    },
  );

  app.post(
    '/api/v1/user/email/confirm-email',
    {
      schema: {
        tags: ['user'],
        body: tokenBody,
        response: { 200: z.object({ email: z.string() }), ...errorResponses },
      },
    },
    async (request) => confirmEmail(deps, request.body.token),
  );

  app.post(
    '/api/v1/user/password/send-reset-email',
    { schema: { tags: ['user'], body: emailOnlyBody, response: { 202: accepted, ...errorResponses } } },
    async (request, reply) => {
      await requestPasswordReset(deps, request.body.email, { ip: request.ip });
      return reply.status(202).send({ detail: ACCEPTED_DETAIL });
    },
  );

  app.post(
    '/api/v1/user/email/reset-password',
    {
      schema: {
        tags: ['user'],
        body: resetPasswordBody,
        response: { 200: z.object({ detail: z.string() }), ...errorResponses },
      },
    },
    async (request) => {
      await resetPassword(deps, request.body.token, request.body.password);
      return { detail: '비밀번호를 변경했습니다. 새 비밀번호로 로그인해주세요.' };
    },
  );
};
