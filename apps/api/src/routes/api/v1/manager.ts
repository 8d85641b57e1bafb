import { streamedResponse } from '@ansim/shared/contract/common';
import {
  caseAuditResponse,
  caseExclusionsResponse,
  caseHandlersResponse,
  caseInvitationsResponse,
  caseMeasuresResponse,
  managerCaseSchema,
  managerMessagesResponse,
  managerPageSchema,
  measureCreatedResponse,
} from '@ansim/shared/contract/manager';
import { reportStatsQuery, reportStatsResponse } from '@ansim/shared/stats';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caseAuditLog, caseAuditQuery } from '../../../domain/audit/case-audit.ts';
import { recordAudit } from '../../../domain/audit/record-audit.ts';
import {
  resendInvitation,
  revokeInvitation,
  sendInvitations,
  sendInvitationsBody,
} from '../../../domain/invitations/send-invitation.ts';
import { requireCaseManager, requireManager } from '../../../domain/manager/access.ts';
import {
  addExclusion,
  assigneesBody,
  exclusionBody,
  setAssignees,
} from '../../../domain/manager/assignees.ts';
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
import { loadCaseRecord, renderCaseRecord } from '../../../domain/manager/case-record.ts';
import { findCompanyReport } from '../../../domain/manager/case-scope.ts';
import { getManagerCase } from '../../../domain/manager/case-view.ts';
import { companyReportsCsv } from '../../../domain/manager/export-csv.ts';
import { listCompanyReports, managerListQuery } from '../../../domain/manager/list-reports.ts';
import { companyStats } from '../../../domain/manager/stats.ts';
import { getSession } from '../../../plugins/session.ts';
import { errorResponses, idParam } from '../../schemas.ts';

// The case is built field by field in domain/manager, where the anonymity rules live; its wire shape is the
// shared contract, and serialisation drops anything it does not declare.
const caseSchema = managerCaseSchema;
const listResponse = managerPageSchema;
const measureParams = z.object({ id: idParam.shape.id, measureId: idParam.shape.id });

export const managerRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

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
      const manager = await requireManager(await getSession(request));
      // Recorded in the audit log by the domain function, beside the read.
      return listCompanyReports(deps.database, manager, request.query);
    },
  );

  app.get(
    '/api/v1/manager/report/export.csv',
    {
      schema: {
        tags: ['manager'],
        querystring: managerListQuery,
        response: {
          200: streamedResponse('text/csv', 'Every matching case, one row each (UTF-8 with a BOM for Excel)'),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const manager = await requireManager(await getSession(request));
      // The whole file is built before the first byte: a failure while reading the cases is then a clean
      // error answer, never a 200 whose connection is cut off half-way (a truncated file looks complete).
      let csv = '';
      for await (const chunk of companyReportsCsv(deps.database, manager, request.query)) csv += chunk;
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
      const manager = await requireManager(await getSession(request));
      const found = await getManagerCase(deps.database, manager, request.params.id);
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
      const manager = await requireManager(await getSession(request));
      await changeStatus(deps, manager, request.params.id, request.body);
      return getManagerCase(deps.database, manager, request.params.id);
    },
  );

  app.get(
    '/api/v1/manager/report/:id/messages',
    {
      schema: {
        tags: ['manager'],
        params: idParam,
        response: { 200: managerMessagesResponse, ...errorResponses },
      },
    },
    async (request) => {
      const manager = await requireManager(await getSession(request));
      const found = await getManagerCase(deps.database, manager, request.params.id);
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
    {
      schema: {
        tags: ['manager'],
        params: idParam,
        body: messageBody,
        response: { 201: managerMessagesResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const manager = await requireManager(await getSession(request));
      await postManagerMessage(deps, manager, request.params.id, request.body);
      return reply
        .status(201)
        .send((await getManagerCase(deps.database, manager, request.params.id)).messages);
    },
  );

  app.post(
    '/api/v1/manager/report/:id/measures',
    {
      schema: {
        tags: ['manager'],
        params: idParam,
        body: measureCreateBody,
        response: { 201: measureCreatedResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const manager = await requireManager(await getSession(request));
      const id = await addMeasure(deps, manager, request.params.id, request.body);
      return reply.status(201).send({ id });
    },
  );

  app.patch(
    '/api/v1/manager/report/:id/measures/:measureId',
    {
      schema: {
        tags: ['manager'],
        params: measureParams,
        body: measureUpdateBody,
        response: { 200: caseMeasuresResponse, ...errorResponses },
      },
    },
    async (request) => {
      const manager = await requireManager(await getSession(request));
      await updateMeasure(deps, manager, request.params.id, request.params.measureId, request.body);
      return (await getManagerCase(deps.database, manager, request.params.id)).measures;
    },
  );

  /**
   * The investigation record (조사보고서) as a PDF made on the server: what HR files. Printing it is recorded
   * like a read, since the PDF carries the whole case out of the system.
   */
  app.get(
    '/api/v1/manager/report/:id/record.pdf',
    {
      schema: {
        tags: ['manager'],
        params: idParam,
        produces: ['application/pdf'],
        response: {
          200: streamedResponse('application/pdf', 'The investigation record (조사보고서)', 'binary'),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const manager = await requireManager(await getSession(request));
      const record = await loadCaseRecord(deps.database, manager, request.params.id);
      const pdf = await renderCaseRecord(record);
      await recordAudit(deps.database.db, {
        companyId: manager.companyId,
        actorId: manager.userId,
        action: 'report.record',
        targetType: 'report',
        targetId: record.view.id,
      });
      const fileName = `조사보고서-${record.view.case_number}.pdf`;
      reply.header('Content-Type', 'application/pdf');
      reply.header('Cache-Control', 'no-store');
      reply.header(
        'Content-Disposition',
        `attachment; filename="record-${record.view.case_number}.pdf"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      );
      // A buffer is sent as it is, never serialised: the string schema of this answer only documents it.
      return reply.send(pdf as unknown as string);
    },
  );

  app.get(
    '/api/v1/manager/stats/reports',
    {
      schema: {
        tags: ['manager'],
        querystring: reportStatsQuery,
        response: { 200: reportStatsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const manager = await requireCaseManager(await getSession(request));
      return companyStats(deps.database, manager, request.query);
    },
  );

  app.post(
    '/api/v1/manager/report/:id/invitations',
    {
      schema: {
        tags: ['manager'],
        params: idParam,
        body: sendInvitationsBody,
        response: { 201: caseInvitationsResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const manager = await requireManager(await getSession(request));
      await sendInvitations(deps, manager, request.params.id, request.body);
      return reply
        .status(201)
        .send((await getManagerCase(deps.database, manager, request.params.id)).invitations);
    },
  );

  /** The case's access and change log, filtered by action and by user (the case page's audit panel). */
  app.get(
    '/api/v1/manager/report/:id/audit',
    {
      schema: {
        tags: ['manager'],
        params: idParam,
        querystring: caseAuditQuery,
        response: { 200: caseAuditResponse, ...errorResponses },
      },
    },
    async (request) => {
      const handler = await requireManager(await getSession(request));
      const found = await findCompanyReport(deps.database, handler, request.params.id);
      return caseAuditLog(deps.database, handler.companyId, found.id, request.query);
    },
  );

  /** Who handles the case: a manager or admin replaces the list; an investigator is 403 (they do not assign). */
  app.put(
    '/api/v1/manager/report/:id/assignees',
    {
      schema: {
        tags: ['manager'],
        params: idParam,
        body: assigneesBody,
        response: { 200: caseHandlersResponse, ...errorResponses },
      },
    },
    async (request) => {
      const manager = await requireCaseManager(await getSession(request));
      return setAssignees(deps.database, manager, request.params.id, request.body.user_ids);
    },
  );

  /** A conflict of interest recorded by hand: the person loses the case (and any assignment to it) on every surface. */
  app.post(
    '/api/v1/manager/report/:id/exclusions',
    {
      schema: {
        tags: ['manager'],
        params: idParam,
        body: exclusionBody,
        response: { 201: caseExclusionsResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const manager = await requireCaseManager(await getSession(request));
      await addExclusion(deps.database, manager, request.params.id, request.body.user_id);
      return reply
        .status(201)
        .send((await getManagerCase(deps.database, manager, request.params.id)).exclusions);
    },
  );

  const invitationParams = z.object({ id: idParam.shape.id, invitationId: idParam.shape.id });

  app.post(
    '/api/v1/manager/report/:id/invitations/:invitationId/resend',
    {
      schema: {
        tags: ['manager'],
        params: invitationParams,
        response: { 200: caseInvitationsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const manager = await requireManager(await getSession(request));
      await resendInvitation(deps, manager, request.params.id, request.params.invitationId);
      return (await getManagerCase(deps.database, manager, request.params.id)).invitations;
    },
  );

  app.post(
    '/api/v1/manager/report/:id/invitations/:invitationId/revoke',
    {
      schema: {
        tags: ['manager'],
        params: invitationParams,
        response: { 200: caseInvitationsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const manager = await requireManager(await getSession(request));
      await revokeInvitation(deps, manager, request.params.id, request.params.invitationId);
      return (await getManagerCase(deps.database, manager, request.params.id)).invitations;
    },
  );
};
