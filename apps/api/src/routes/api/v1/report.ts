import {
  measureOpinionBody,
  messageBody,
  messageThreadResponse,
  pageQuery,
  reporterMeasuresResponse,
  reporterReportDetailSchema,
  reportPageSchema,
  reportSubmissionBodySchema,
  submitReportHeaders,
  submitReportResponse,
} from '@ansim/shared/contract/report';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findIntakeSession } from '../../../domain/intake/intake-sessions.ts';
import { submitStatement } from '../../../domain/invitations/submit-statement.ts';
import { recordMeasureOpinion } from '../../../domain/reports/measure-opinion.ts';
import { createReceiptSession } from '../../../domain/reports/receipts.ts';
import { listReporterMessages, postReporterMessage } from '../../../domain/reports/reporter-messages.ts';
import { getOwnReport, listOwnReports } from '../../../domain/reports/reporter-reports.ts';
import { type Submitter, submitReport } from '../../../domain/reports/submit-report.ts';
import { AppError } from '../../../lib/app-error.ts';
import { loadInvitee } from '../../../plugins/invitee.ts';
import { intakeToken, reporterAccess, setReceiptCookie } from '../../../plugins/reporter.ts';
import { requireSession } from '../../../plugins/session.ts';
import { errorResponses, idParam } from '../../schemas.ts';

const measureParams = z.object({ id: idParam.shape.id, measureId: idParam.shape.id });

export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.post(
    '/api/v1/report/',
    {
      schema: {
        tags: ['report'],
        body: reportSubmissionBodySchema,
        headers: submitReportHeaders,
        response: { 201: submitReportResponse, ...errorResponses },
      },
      preHandler: loadInvitee,
    },
    async (request, reply) => {
      const { contact_email: contactEmail, ...form } = request.body;
      // Accused persons and witnesses answer through their link's token, with no account and no session.
      if (request.invitee) {
        const receipt = await submitStatement(deps.database, request.invitee, form);
        return reply.status(201).send({ id: receipt.id, receipt: receipt.sha256 });
      }
      if (form.report_type !== 'anonym' && form.report_type !== 'brief' && form.report_type !== 'formal') {
        throw new AppError('VALIDATION_ERROR', {
          details: { report_type: '참고인·피신고인 진술은 이메일로 받은 요청 링크에서 제출할 수 있습니다.' },
        });
      }
      // An anonymous draft submits with its intake token alone, whatever account cookie rides along.
      const intake = intakeToken(request);
      const submitter: Submitter = intake
        ? { kind: 'intake', intake: await findIntakeSession(deps.database, intake) }
        : { kind: 'account', user: (await requireSession(request)).user };
      const submitted = await submitReport(deps, submitter, form, {
        idempotencyKey: request.headers['idempotency-key'],
        contactEmail,
      });
      if (!submitted.receipt) return reply.status(201).send({ id: submitted.id });
      // The reporter lands on their case at once; later they come back with the receipt.
      setReceiptCookie(request, reply, await createReceiptSession(deps.database.db, submitted.id));
      return reply.status(201).send({ id: submitted.id, receipt: submitted.receipt });
    },
  );

  app.get(
    '/api/v1/report/',
    {
      schema: {
        tags: ['report'],
        querystring: pageQuery,
        response: { 200: reportPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return listOwnReports(deps.database, session.user.id, request.query.page, request.query.page_size);
    },
  );

  app.get(
    '/api/v1/report/:id',
    {
      schema: {
        tags: ['report'],
        params: idParam,
        response: { 200: reporterReportDetailSchema, ...errorResponses },
      },
    },
    async (request) => {
      const access = await reporterAccess(request, request.params.id);
      return getOwnReport(deps.database, access, request.params.id);
    },
  );

  app.get(
    '/api/v1/report/:id/messages',
    {
      schema: {
        tags: ['report'],
        params: idParam,
        response: { 200: messageThreadResponse, ...errorResponses },
      },
    },
    async (request) => {
      const access = await reporterAccess(request, request.params.id);
      return listReporterMessages(deps.database, access, request.params.id);
    },
  );

  app.post(
    '/api/v1/report/:id/messages',
    {
      schema: {
        tags: ['report'],
        params: idParam,
        body: messageBody,
        response: { 201: messageThreadResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const access = await reporterAccess(request, request.params.id);
      await postReporterMessage(deps, access, request.params.id, request.body);
      return reply.status(201).send(await listReporterMessages(deps.database, access, request.params.id));
    },
  );

  app.post(
    '/api/v1/report/:id/measures/:measureId/opinion',
    {
      schema: {
        tags: ['report'],
        params: measureParams,
        body: measureOpinionBody,
        response: { 200: reporterMeasuresResponse, ...errorResponses },
      },
    },
    async (request) => {
      const access = await reporterAccess(request, request.params.id);
      await recordMeasureOpinion(deps, access, request.params.id, request.params.measureId, request.body);
      return (await getOwnReport(deps.database, access, request.params.id)).measures;
    },
  );
};
