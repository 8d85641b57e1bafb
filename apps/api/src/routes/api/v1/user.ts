import { joinCompanyBody } from '@ansim/shared/auth';
import { detailResponse } from '@ansim/shared/contract/common';
import type { CurrentUser } from '@ansim/shared/contract/user';
import {
  acceptedResponse as accepted,
  confirmEmailResponse,
  currentUserSchema as currentUser,
  emailOnlyBody,
  passkeyListResponse,
  passkeyRegisterBody,
  passkeyRegisteredResponse,
  passwordOnlyBody,
  pendingReceiptsResponse,
  recoveryCodesResponse,
  registerBody,
  resetPasswordBody,
  tokenBody,
  totpConfirmBody,
  totpDeleteBody,
  totpStartResponse,
  webauthnJson,
} from '@ansim/shared/contract/user';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../../db/client.ts';
import { companies, users } from '../../../db/schema.ts';
import { mfaStatus, regenerateRecoveryCodes } from '../../../domain/mfa/factors.ts';
import {
  listPasskeys,
  passkeyRegistrationOptions,
  registerPasskey,
  removePasskey,
} from '../../../domain/mfa/passkeys.ts';
import { confirmTotp, removeTotp, startTotpEnrolment } from '../../../domain/mfa/totp.ts';
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
import { joinCompany } from '../../../domain/users/join-company.ts';
import { AppError } from '../../../lib/app-error.ts';
import { requireSession } from '../../../plugins/session.ts';
import { errorResponses, idParam } from '../../schemas.ts';

const ACCEPTED_DETAIL = '요청을 받았습니다. 이메일을 확인해주세요.';

async function currentUserView(database: Database, userId: string): Promise<CurrentUser> {
  const [row] = await database.db
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
    .where(eq(users.id, userId));
  if (!row) throw new AppError('USER_NOT_FOUND');
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    company: row.companyId && row.companyName ? { id: row.companyId, name: row.companyName } : null,
    mfa: await mfaStatus(database, row.id, row.role),
  };
}

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.post(
    '/api/v1/user/',
    { schema: { tags: ['user'], body: registerBody, response: { 201: accepted, ...errorResponses } } },
    async (request, reply) => {
      await registerUser(deps, request.body, { addressKey: request.addressKey });
      return reply.status(201).send({ detail: ACCEPTED_DETAIL });
    },
  );

  app.get(
    '/api/v1/user/',
    { schema: { tags: ['user'], response: { 200: currentUser, ...errorResponses } } },
    async (request) => {
      const session = await requireSession(request);
      return currentUserView(deps.database, session.user.id);
    },
  );

  app.post(
    '/api/v1/user/join',
    {
      schema: {
        tags: ['user'],
        summary: 'Join a company with its join code (a member without one); answers with the updated user',
        body: joinCompanyBody,
        response: { 200: currentUser, ...errorResponses },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      await joinCompany(deps, session.user.id, request.body.join_code, { addressKey: request.addressKey });
      return currentUserView(deps.database, session.user.id);
    },
  );

  app.get(
    '/api/v1/user/pending-receipts',
    {
      schema: {
        tags: ['user'],
        summary: 'Receipts of anonymous reports filed before they became unlinkable, shown once',
        response: {
          200: pendingReceiptsResponse,
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
    '/api/v1/user/mfa/totp/',
    {
      schema: {
        tags: ['mfa'],
        description: 'Starts TOTP enrolment: a new secret, not active until confirmed with a code.',
        response: { 200: totpStartResponse, ...errorResponses },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return startTotpEnrolment(deps, session.user.id);
    },
  );

  app.post(
    '/api/v1/user/mfa/totp/confirm',
    {
      schema: {
        tags: ['mfa'],
        description: 'Activates the pending TOTP; answers the ten recovery codes, shown this once only.',
        body: totpConfirmBody,
        response: { 200: recoveryCodesResponse, ...errorResponses },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      const codes = await confirmTotp(
        deps,
        { userId: session.user.id, idHash: session.idHash },
        request.body,
      );
      return { recovery_codes: codes };
    },
  );

  app.delete(
    '/api/v1/user/mfa/totp/',
    {
      schema: {
        tags: ['mfa'],
        body: totpDeleteBody,
        response: { 204: z.undefined(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request);
      await removeTotp(deps, session.user.id, request.body);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/user/mfa/recovery-codes',
    {
      schema: {
        tags: ['mfa'],
        description: 'Replaces every recovery code with ten new ones.',
        body: passwordOnlyBody,
        response: { 200: recoveryCodesResponse, ...errorResponses },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return { recovery_codes: await regenerateRecoveryCodes(deps, session.user.id, request.body.password) };
    },
  );

  app.get(
    '/api/v1/user/mfa/passkeys/',
    { schema: { tags: ['mfa'], response: { 200: passkeyListResponse, ...errorResponses } } },
    async (request) => {
      const session = await requireSession(request);
      return listPasskeys(deps.database, session.user.id);
    },
  );

  app.post(
    '/api/v1/user/mfa/passkeys/registration/options',
    {
      schema: {
        tags: ['mfa'],
        description: 'Options for navigator.credentials.create(); answer with .../registration/verify.',
        response: { 200: webauthnJson, ...errorResponses },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return (await passkeyRegistrationOptions(deps, session.user.id)) as never;
    },
  );

  app.post(
    '/api/v1/user/mfa/passkeys/registration/verify',
    {
      schema: {
        tags: ['mfa'],
        description:
          'Registers the passkey. recovery_codes is set when it is the first factor of the account (shown once).',
        body: passkeyRegisterBody,
        response: { 200: passkeyRegisteredResponse, ...errorResponses },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return registerPasskey(
        deps,
        { userId: session.user.id, idHash: session.idHash },
        {
          password: request.body.password,
          name: request.body.name,
          response: request.body.response as never,
        },
      );
    },
  );

  app.delete(
    '/api/v1/user/mfa/passkeys/:id',
    {
      schema: {
        tags: ['mfa'],
        params: idParam,
        body: passwordOnlyBody,
        response: { 204: z.undefined(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request);
      await removePasskey(deps, session.user.id, request.params.id, request.body.password);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/user/email/register',
    { schema: { tags: ['user'], body: emailOnlyBody, response: { 202: accepted, ...errorResponses } } },
    async (request, reply) => {
      await resendConfirmation(deps, request.body.email, { addressKey: request.addressKey });
      return reply.status(202).send({ detail: ACCEPTED_DETAIL });
    },
  );

  app.post(
    '/api/v1/user/email/confirm-email',
    {
      schema: {
        tags: ['user'],
        body: tokenBody,
        response: { 200: confirmEmailResponse, ...errorResponses },
      },
    },
    async (request) => confirmEmail(deps, request.body.token),
  );

  app.post(
    '/api/v1/user/password/send-reset-email',
    { schema: { tags: ['user'], body: emailOnlyBody, response: { 202: accepted, ...errorResponses } } },
    async (request, reply) => {
      await requestPasswordReset(deps, request.body.email, { addressKey: request.addressKey });
      return reply.status(202).send({ detail: ACCEPTED_DETAIL });
    },
  );

  app.post(
    '/api/v1/user/email/reset-password',
    {
      schema: {
        tags: ['user'],
        body: resetPasswordBody,
        response: { 200: detailResponse, ...errorResponses },
      },
    },
    async (request) => {
      await resetPassword(deps, request.body.token, request.body.password);
      return { detail: '비밀번호를 변경했습니다. 새 비밀번호로 로그인해주세요.' };
    },
  );
};
