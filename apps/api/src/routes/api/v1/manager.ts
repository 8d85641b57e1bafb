import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../../domain/audit/record-audit.ts';
import {
  resendInvitation,
  revokeInvitation,
  sendInvitations,
  sendInvitationsBody,
} from '../../../domain/invitations/invitations.ts';
import { requireManager } from '../../../domain/manager/access.ts';
import {
  addMeasure,
  changeStatus,
  measureCreateBody,
  measureUpdateBody,
  messageBody,
  postManagerMessage,
  statusChangeBody,
  updateMeasure,
} from '../../../domain/manager/case-actions.ts';
import { getManagerCase } from '../../../domain/manager/case-view.ts';
import { companyReportsCsv } from '../../../domain/manager/export-csv.ts';
import { listCompanyReports, managerListQuery } from '../../../domain/manager/list-reports.ts';
import { companyStats } from '../../../domain/manager/stats.ts';
import { findSession } from '../../../domain/sessions/sessions.ts';
import { sessionCookie } from '../../../plugins/session.ts';
import { caseStreams } from '../../case-stream.ts';
import { errorResponses, idParam } from '../../schemas.ts';

// Built field by field in domain/manager, where the anonymity rules live; not re-declared here.
const caseSchema = z.any();
const listResponse = z.object({
  count: z.number(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(z.any()),
});
const measureParams = z.object({ id: idParam.shape.id, measureId: idParam.shape.id });

export const managerRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const openCaseStream = caseStreams(app);

  app.get(
    '/api/v1/manager/report/',
    {
      schema: {
        tags: ['manager'],
        querystring: managerListQuery,
        response: { 200: listResponse, ...errorResponses },
      },
    },
    async (request) => {
      const manager = await requireManager(request);
      const page = await listCompanyReports(deps.database, manager.companyId, request.query);
      await recordAudit(deps.database.db, {
        companyId: manager.companyId,
        actorId: manager.userId,
        action: 'report.list',
        targetType: 'company',
        targetId: manager.companyId,
      });
      return page;
    },
  );

  app.get(
    '/api/v1/manager/report/export.csv',
    { schema: { tags: ['manager'], querystring: managerListQuery } },
    async (request, reply) => {
      const manager = await requireManager(request);
      // The whole file is built before the first byte: a failure while reading the cases is then a clean
      // error answer, never a 200 whose connection is cut off half-way (a truncated file looks complete).
      let csv = '';
      for await (const chunk of companyReportsCsv(deps.database, manager.companyId, request.query))
        csv += chunk;
      await recordAudit(deps.database.db, {
        companyId: manager.companyId,
        actorId: manager.userId,
        action: 'report.export',
        targetType: 'company',
        targetId: manager.companyId,
      });
      const date = new Date(Date.now() + 9 * 3600 * 1000).toISOString().slice(0, 10);
      reply.header('Content-Type', 'text/csv; charset=utf-8');
      reply.header(
        'Content-Disposition',
        `attachment; filename="cases-${date}.csv"; filename*=UTF-8''${encodeURIComponent(`사건목록-${date}.csv`)}`,
      );
      return reply.send(csv);
    },
  );

  app.get(
    '/api/v1/manager/report/:id',
    { schema: { tags: ['manager'], params: idParam, response: { 200: caseSchema, ...errorResponses } } },
    async (request) => {
      const manager = await requireManager(request);
      const found = await getManagerCase(deps.database, manager.companyId, request.params.id);
      await recordAudit(deps.database.db, {
        companyId: manager.companyId,
        actorId: manager.userId,
        action: 'report.read',
        targetType: 'report',
        targetId: found.id,
      });
      return found;
    },
  );

  app.patch(
    '/api/v1/manager/report/:id',
    {
      schema: {
        tags: ['manager'],
        params: idParam,
        body: statusChangeBody,
        response: { 200: caseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const manager = await requireManager(request);
      await changeStatus(deps, manager, request.params.id, request.body);
      return getManagerCase(deps.database, manager.companyId, request.params.id);
    },
  );

  app.get(
    '/api/v1/manager/report/:id/messages',
    { schema: { tags: ['manager'], params: idParam } },
    async (request) => {
      const manager = await requireManager(request);
      const found = await getManagerCase(deps.database, manager.companyId, request.params.id);
      // The conversation is case content like the rest of the case: its reading is recorded the same way.
      await recordAudit(deps.database.db, {
        companyId: manager.companyId,
        actorId: manager.userId,
        action: 'report.read',
        targetType: 'report',
        targetId: found.id,
      });
      return found.messages;
    },
  );

  app.post(
    '/api/v1/manager/report/:id/messages',
    { schema: { tags: ['manager'], params: idParam, body: messageBody } },
    async (request, reply) => {
      const manager = await requireManager(request);
      await postManagerMessage(deps, manager, request.params.id, request.body.body);
      return reply
        .status(201)
        .send((await getManagerCase(deps.database, manager.companyId, request.params.id)).messages);
    },
  );

  app.post(
    '/api/v1/manager/report/:id/measures',
    { schema: { tags: ['manager'], params: idParam, body: measureCreateBody } },
    async (request, reply) => {
      const manager = await requireManager(request);
      const id = await addMeasure(deps, manager, request.params.id, request.body);
      return reply.status(201).send({ id });
    },
  );

  app.patch(
    '/api/v1/manager/report/:id/measures/:measureId',
    { schema: { tags: ['manager'], params: measureParams, body: measureUpdateBody } },
    async (request) => {
      const manager = await requireManager(request);
      await updateMeasure(deps, manager, request.params.id, request.params.measureId, request.body);
      return (await getManagerCase(deps.database, manager.companyId, request.params.id)).measures;
    },
  );

  /**
   * The case state as a `text/event-stream`: sent at once and again whenever the case changes in any API
   * process (LISTEN/NOTIFY). The session is checked again before every push, so a logout ends the stream.
   */
  app.get(
    '/api/v1/manager/report/:id/events',
    { schema: { tags: ['manager'], params: idParam } },
    async (request, reply) => {
      const manager = await requireManager(request);
      const reportId = request.params.id;
      const first = JSON.stringify(await getManagerCase(deps.database, manager.companyId, reportId));
      await recordAudit(deps.database.db, {
        companyId: manager.companyId,
        actorId: manager.userId,
        action: 'report.watch',
        targetType: 'report',
        targetId: reportId,
      });
      const sessionId = sessionCookie(request) ?? '';
      // Re-sending the last state as keep-alive stays parseable as an event.
      await openCaseStream(request, reply, {
        reportId,
        first,
        // The session is checked again before every push, so a logout ends the stream.
        next: async () => {
          const session = await findSession(deps.database, sessionId, deps.config);
          if (session?.user.role !== 'manager' || session.user.companyId !== manager.companyId) return null;
          return JSON.stringify(await getManagerCase(deps.database, manager.companyId, reportId));
        },
      });
    },
  );

  app.get(
    '/api/v1/manager/stats/reports',
    { schema: { tags: ['manager'], response: { 200: caseSchema, ...errorResponses } } },
    async (request) => {
      const manager = await requireManager(request);
      return companyStats(deps.database, manager.companyId);
    },
  );

  app.post(
    '/api/v1/manager/report/:id/invitations',
    { schema: { tags: ['manager'], params: idParam, body: sendInvitationsBody } },
    async (request, reply) => {
      const manager = await requireManager(request);
      await sendInvitations(deps, manager, request.params.id, request.body);
      return reply
        .status(201)
        .send((await getManagerCase(deps.database, manager.companyId, request.params.id)).invitations);
    },
  );

  const invitationParams = z.object({ id: idParam.shape.id, invitationId: idParam.shape.id });

  app.post(
    '/api/v1/manager/report/:id/invitations/:invitationId/resend',
    { schema: { tags: ['manager'], params: invitationParams } },
    async (request) => {
      const manager = await requireManager(request);
      await resendInvitation(deps, manager, request.params.id, request.params.invitationId);
      return (await getManagerCase(deps.database, manager.companyId, request.params.id)).invitations;
    },
  );

  app.post(
    '/api/v1/manager/report/:id/invitations/:invitationId/revoke',
    { schema: { tags: ['manager'], params: invitationParams } },
    async (request) => {
      const manager = await requireManager(request);
      await revokeInvitation(deps, manager, request.params.id, request.params.invitationId);
      return (await getManagerCase(deps.database, manager.companyId, request.params.id)).invitations;
    },
  );
};
