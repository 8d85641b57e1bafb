import {
  companyInvitationBody,
  companySettingsPatch,
  domainClaimBody,
  roleChangeBody,
} from '@ansim/shared/company-settings';
import {
  companyAuditResponse,
  companySettingsSchema,
  domainsResponse,
  intakeCodeRotated,
  pendingCompanyInvitationsResponse,
  peopleResponse,
  personSchema,
} from '@ansim/shared/contract/company';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyAuditQuery, listCompanyAudit } from '../../../domain/companies/company-audit.ts';
import { createCompanyInvitation } from '../../../domain/companies/company-invitations.ts';
import {
  describeDomainClaim,
  listDomains,
  removeDomain,
  requestDomainClaim,
  verifyDomainClaim,
} from '../../../domain/companies/domain-claims.ts';
import {
  changeRole,
  listPendingInvitations,
  listPeople,
  revokeCompanyInvitation,
} from '../../../domain/companies/people.ts';
import {
  getCompanySettings,
  rotateIntakeCode,
  rotateJoinCode,
  updateCompanySettings,
} from '../../../domain/companies/settings.ts';
import { requireCompanyAdmin } from '../../../domain/manager/access.ts';
import { getSession } from '../../../plugins/session.ts';
import { errorResponses, idParam } from '../../schemas.ts';

const tags = ['company'];
const settingsView = companySettingsSchema;
const tokenParam = z.object({ token: z.string().min(1).max(200) });
const domainParam = z.object({
  domain: z
    .string()
    .min(1)
    .max(253)
    // PostgreSQL text cannot hold NUL, and no domain has a control character: a clean 400, never a 500.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    .regex(/^[^\u0000-\u001f\u007f]+$/, '도메인 형식이 올바르지 않습니다.'),
});
const claimView = z.object({ domain: z.string(), company: z.object({ name: z.string() }) });

/**
 * The company administrator's settings (R-CO-2): people, domains, join code, deadlines and retention,
 * notice texts, and the log of every change. Every route but the domain proof link is the company's admin's
 * only, and reaches only the admin's own company: no route takes a company id.
 */
export const companyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '/api/v1/company/settings',
    { schema: { tags, response: { 200: settingsView, ...errorResponses } } },
    async (request) => {
      const admin = await requireCompanyAdmin(await getSession(request));
      return getCompanySettings(deps, admin.companyId);
    },
  );

  app.patch(
    '/api/v1/company/settings',
    { schema: { tags, body: companySettingsPatch, response: { 200: settingsView, ...errorResponses } } },
    async (request) => {
      const admin = await requireCompanyAdmin(await getSession(request));
      return updateCompanySettings(deps, admin, request.body);
    },
  );

  app.post(
    '/api/v1/company/join-code/rotate',
    { schema: { tags, response: { 200: z.object({ join_code: z.string() }), ...errorResponses } } },
    async (request) => {
      const admin = await requireCompanyAdmin(await getSession(request));
      return { join_code: await rotateJoinCode(deps.database, admin) };
    },
  );

  app.post(
    '/api/v1/company/intake-code/rotate',
    {
      schema: {
        tags,
        summary: 'Replace the public intake link (the old one stops working)',
        response: { 200: intakeCodeRotated, ...errorResponses },
      },
    },
    async (request) => {
      const admin = await requireCompanyAdmin(await getSession(request));
      return rotateIntakeCode(deps, admin);
    },
  );

  app.get(
    '/api/v1/company/people',
    { schema: { tags, response: { 200: peopleResponse, ...errorResponses } } },
    async (request) => {
      const admin = await requireCompanyAdmin(await getSession(request));
      return { results: await listPeople(deps.database, admin.companyId) };
    },
  );

  app.patch(
    '/api/v1/company/people/:id',
    {
      schema: {
        tags,
        params: idParam,
        body: roleChangeBody,
        response: { 200: personSchema, ...errorResponses },
      },
    },
    async (request) => {
      const admin = await requireCompanyAdmin(await getSession(request));
      return changeRole(deps.database, admin, request.params.id, request.body.role);
    },
  );

  app.get(
    '/api/v1/company/invitations',
    { schema: { tags, response: { 200: pendingCompanyInvitationsResponse, ...errorResponses } } },
    async (request) => {
      const admin = await requireCompanyAdmin(await getSession(request));
      return { results: await listPendingInvitations(deps.database, admin.companyId) };
    },
  );

  // The invitee sets a password through the mailed /join/{token} link, or accepts with the account they have.
  app.post(
    '/api/v1/company/invitations',
    {
      schema: {
        tags,
        body: companyInvitationBody,
        response: { 201: z.object({ id: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const admin = await requireCompanyAdmin(await getSession(request));
      const created = await createCompanyInvitation(deps, {
        companyId: admin.companyId,
        email: request.body.email,
        role: request.body.role,
        invitedBy: admin.userId,
      });
      return reply.status(201).send({ id: created.id });
    },
  );

  // Its own path: `/api/v1/company/invitations/:token` is the invitee's public side (company-invitation.ts).
  app.delete(
    '/api/v1/company/pending-invitations/:id',
    { schema: { tags, params: idParam, response: { 204: z.null(), ...errorResponses } } },
    async (request, reply) => {
      const admin = await requireCompanyAdmin(await getSession(request));
      await revokeCompanyInvitation(deps.database, admin, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/v1/company/domains',
    { schema: { tags, response: { 200: domainsResponse, ...errorResponses } } },
    async (request) => {
      const admin = await requireCompanyAdmin(await getSession(request));
      return listDomains(deps.database, admin.companyId);
    },
  );

  app.post(
    '/api/v1/company/domains',
    {
      schema: {
        tags,
        body: domainClaimBody,
        response: { 202: z.object({ id: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const admin = await requireCompanyAdmin(await getSession(request));
      return reply.status(202).send(await requestDomainClaim(deps, admin, request.body));
    },
  );

  app.delete(
    '/api/v1/company/domains/:domain',
    { schema: { tags, params: domainParam, response: { 204: z.null(), ...errorResponses } } },
    async (request, reply) => {
      const admin = await requireCompanyAdmin(await getSession(request));
      await removeDomain(deps.database, admin, request.params.domain.trim().toLowerCase());
      return reply.status(204).send(null);
    },
  );

  // The proof link: whoever reads the mailbox at the domain holds the token, with or without an account here.
  app.get(
    '/api/v1/company/domains/verify/:token',
    { schema: { tags, params: tokenParam, response: { 200: claimView, ...errorResponses } } },
    async (request) => describeDomainClaim(deps.database, request.params.token),
  );

  app.post(
    '/api/v1/company/domains/verify/:token',
    { schema: { tags, params: tokenParam, response: { 200: claimView, ...errorResponses } } },
    async (request) => verifyDomainClaim(deps.database, request.params.token),
  );

  app.get(
    '/api/v1/company/audit',
    {
      schema: {
        tags,
        querystring: companyAuditQuery,
        response: { 200: companyAuditResponse, ...errorResponses },
      },
    },
    async (request) => {
      const admin = await requireCompanyAdmin(await getSession(request));
      return listCompanyAudit(deps.database, admin.companyId, request.query);
    },
  );
};
