import {
  createdCompanySchema,
  operatorAuditQuery,
  operatorAuditResponse,
  operatorCompanySchema,
  platformHealthSchema,
  suspensionSchema,
} from '@ansim/shared/contract/operator';
import { createCompanyBody } from '@ansim/shared/operator';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireOperator } from '../../../domain/operator/access.ts';
import {
  createOperatorCompany,
  listOperatorCompanies,
  platformHealth,
  setCompanySuspended,
} from '../../../domain/operator/companies.ts';
import { listOperatorAudit } from '../../../domain/operator/operator-audit.ts';
import { getSession } from '../../../plugins/session.ts';
import { errorResponses, idParam } from '../../schemas.ts';

/**
 * The platform operator's console. Companies and platform health only: nothing here reads a report, a
 * statement, a message or a file, and the response schemas let nothing else out.
 */
export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.post(
    '/api/v1/operator/companies',
    {
      schema: {
        tags: ['operator'],
        summary: 'Creates a company and mails its first admin an invitation',
        body: createCompanyBody,
        response: { 201: createdCompanySchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const operator = await requireOperator(await getSession(request));
      const created = await createOperatorCompany(deps, operator.userId, request.body);
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/api/v1/operator/companies',
    {
      schema: {
        tags: ['operator'],
        summary: 'Companies with head counts per role and case counts (no case content)',
        response: { 200: z.array(operatorCompanySchema), ...errorResponses },
      },
    },
    async (request) => {
      await requireOperator(await getSession(request));
      return listOperatorCompanies(deps.database);
    },
  );

  app.post(
    '/api/v1/operator/companies/:id/suspend',
    {
      schema: {
        tags: ['operator'],
        summary: 'Suspends a company: its users are logged out and cannot log in; its data stays',
        params: idParam,
        response: { 200: suspensionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const operator = await requireOperator(await getSession(request));
      return setCompanySuspended(deps.database, operator.userId, request.params.id, true);
    },
  );

  app.post(
    '/api/v1/operator/companies/:id/resume',
    {
      schema: {
        tags: ['operator'],
        params: idParam,
        response: { 200: suspensionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const operator = await requireOperator(await getSession(request));
      return setCompanySuspended(deps.database, operator.userId, request.params.id, false);
    },
  );

  app.get(
    '/api/v1/operator/health',
    {
      schema: {
        tags: ['operator'],
        summary: 'Outbox backlog, failed mails, storage used',
        response: {
          200: platformHealthSchema,
          ...errorResponses,
        },
      },
    },
    async (request) => {
      await requireOperator(await getSession(request));
      return platformHealth(deps.database);
    },
  );

  // The operator's own actions, shown in the console; each is also in the company's own settings log.
  app.get(
    '/api/v1/operator/audit',
    {
      schema: {
        tags: ['operator'],
        summary: 'Companies created, suspended and resumed: by whom and when',
        querystring: operatorAuditQuery,
        response: { 200: operatorAuditResponse, ...errorResponses },
      },
    },
    async (request) => {
      await requireOperator(await getSession(request));
      return listOperatorAudit(deps.database, request.query);
    },
  );
};
