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
import { errorResponses, idParam } from '../../schemas.ts';

const count = z.number().int();
const operatorCompany = z.object({
  id: z.uuid(),
  name: z.string(),
  domains: z.array(z.string()),
  join_code: z.string().nullable(),
  users: z.object({ member: count, investigator: count, manager: count, admin: count }),
  cases: z.object({ total: count, open: count }),
  suspended_at: z.string().nullable(),
  created_at: z.string(),
});
const suspension = z.object({ id: z.uuid(), suspended_at: z.string().nullable() });

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
        response: { 201: z.object({ id: z.uuid(), join_code: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const operator = await requireOperator(request);
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
        response: { 200: z.array(operatorCompany), ...errorResponses },
      },
    },
    async (request) => {
      await requireOperator(request);
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
        response: { 200: suspension, ...errorResponses },
      },
    },
    async (request) => {
      const operator = await requireOperator(request);
      return setCompanySuspended(deps.database, operator.userId, request.params.id, true);
    },
  );

  app.post(
    '/api/v1/operator/companies/:id/resume',
    {
      schema: {
        tags: ['operator'],
        params: idParam,
        response: { 200: suspension, ...errorResponses },
      },
    },
    async (request) => {
      const operator = await requireOperator(request);
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
          200: z.object({
            outbox: z.object({
              pending: count,
              oldest_pending_seconds: count.nullable(),
              failed: count,
            }),
            storage: z.object({ bytes: z.number(), files: count }),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      await requireOperator(request);
      return platformHealth(deps.database);
    },
  );
};
