import { reportSubmissionBodySchema } from '@ansim/shared/report-form';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findIntakeSession } from '../../../domain/intake/intake-sessions.ts';
import { submitStatement } from '../../../domain/invitations/invitations.ts';
import {
  listReporterMessages,
  messageBody,
  postReporterMessage,
} from '../../../domain/manager/case-actions.ts';
import { createReceiptSession } from '../../../domain/reports/receipts.ts';
import { findOwnReport, getOwnReport, listOwnReports } from '../../../domain/reports/reporter-reports.ts';
import { type Submitter, submitReport } from '../../../domain/reports/submit-report.ts';
import { AppError } from '../../../lib/app-error.ts';
import { invitationToken } from '../../../plugins/invitee.ts';
import {
  intakeToken,
  reporterAccess,
  setReceiptCookie,
  stillHasReporterAccess,
} from '../../../plugins/reporter.ts';
import { requireSession } from '../../../plugins/session.ts';
import { caseStreams } from '../../case-stream.ts';
import { errorResponses, fileView, idParam, pageQuery, reportSummary } from '../../schemas.ts';

const submitHeaders = z.object({
  'idempotency-key': z.string().trim().min(1).max(200).optional(),
});

const reportDetail = reportSummary.extend({
  form: z.record(z.string(), z.unknown()),
  files: z.array(fileView),
  statements: z.object({
    defendant: z.string(),
    references_requested: z.number(),
    references_responded: z.number(),
  }),
  measures: z.array(
    z.object({
      measure: z.string(),
      detail: z.string(),
      decision: z.string(),
      reason: z.string(),
      decided_at: z.string().nullable(),
    }),
  ),
  history: z.array(
    z.object({
      from_status: z.string().nullable(),
      to_status: z.string(),
      note_for_reporter: z.string(),
      created_at: z.string(),
    }),
  ),
});

/** The reporter's stream event; the first one also covers changes between loading the page and subscribing. */
const CHANGED_EVENT = JSON.stringify({ type: 'changed' });

export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const openCaseStream = caseStreams(app);

  app.post(
    '/api/v1/report/',
    {
      schema: {
        tags: ['report'],
        body: reportSubmissionBodySchema,
        headers: submitHeaders,
        response: {
          201: z.object({
            id: z.uuid(),
            receipt: z
              .string()
              .optional()
              .describe('anonymous report: the 16-digit receipt, shown once; statement: its SHA-256'),
          }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { contact_email: contactEmail, ...form } = request.body;
      const token = invitationToken(request);
      // Accused persons and witnesses answer through their link's token, with no account and no session.
      if (token) {
        const receipt = await submitStatement(deps.database, token, form);
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
        response: {
          200: z.object({
            count: z.number(),
            next: z.string().nullable(),
            previous: z.string().nullable(),
            results: z.array(reportSummary),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return listOwnReports(deps.database, session.user.id, request.query.page, request.query.page_size);
    },
  );

  app.get(
    '/api/v1/report/:id',
    { schema: { tags: ['report'], params: idParam, response: { 200: reportDetail, ...errorResponses } } },
    async (request) => {
      const access = await reporterAccess(request, request.params.id);
      return getOwnReport(deps.database, access, request.params.id);
    },
  );

  /**
   * The reporter's twin of the manager's case stream. Its events carry no case content, only that the case
   * changed: the page then re-reads it through GET /api/v1/report/:id, so nothing reaches the reporter here
   * that the report route would not show them.
   */
  app.get(
    '/api/v1/report/:id/events',
    { schema: { tags: ['report'], params: idParam } },
    async (request, reply) => {
      const reportId = request.params.id;
      const access = await reporterAccess(request, reportId);
      await findOwnReport(deps.database, access, reportId);
      await openCaseStream(request, reply, {
        reportId,
        first: CHANGED_EVENT,
        next: async () => ((await stillHasReporterAccess(request, access)) ? CHANGED_EVENT : null),
        // A comment, not an event: repeating the signal would make every open page re-read its case.
        keepAlive: ': keep-alive\n\n',
      });
    },
  );

  app.get(
    '/api/v1/report/:id/messages',
    { schema: { tags: ['report'], params: idParam } },
    async (request) => {
      const access = await reporterAccess(request, request.params.id);
      return listReporterMessages(deps.database, access, request.params.id);
    },
  );

  app.post(
    '/api/v1/report/:id/messages',
    { schema: { tags: ['report'], params: idParam, body: messageBody } },
    async (request, reply) => {
      const access = await reporterAccess(request, request.params.id);
      await postReporterMessage(deps, access, request.params.id, request.body.body);
      return reply.status(201).send(await listReporterMessages(deps.database, access, request.params.id));
    },
  );
};
