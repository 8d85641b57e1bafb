import { reportSubmissionSchema } from '@ansim/shared/report-form';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { submitStatement } from '../../../domain/invitations/invitations.ts';
import {
  listReporterMessages,
  messageBody,
  postReporterMessage,
} from '../../../domain/manager/case-actions.ts';
import { getOwnReport, listOwnReports } from '../../../domain/reports/reporter-reports.ts';
import { submitReport } from '../../../domain/reports/submit-report.ts';
import { AppError } from '../../../lib/app-error.ts';
import { invitationToken } from '../../../plugins/invitee.ts';
import { requireSession } from '../../../plugins/session.ts';
import { errorResponses, idParam, pageQuery, reportSummary } from '../../schemas.ts';

const submitHeaders = z.object({
  'idempotency-key': z.string().trim().min(1).max(200).optional(),
});

const reportDetail = reportSummary.extend({
  form: z.record(z.string(), z.unknown()),
  files: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      size: z.number(),
      content_type: z.string(),
      sha256: z.string(),
      created_at: z.string(),
    }),
  ),
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

export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.post(
    '/api/v1/report/',
    {
      schema: {
        tags: ['report'],
        body: reportSubmissionSchema,
        headers: submitHeaders,
        response: { 201: z.object({ id: z.uuid(), receipt: z.string().optional() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const form = request.body;
      const token = invitationToken(request);
      // Accused persons and witnesses answer through their link's token, with no account and no session.
      if (token) {
        const receipt = await submitStatement(deps.database, token, form);
        return reply.status(201).send({ id: receipt.id, receipt: receipt.sha256 });
      }
      const session = await requireSession(request);
      if (form.report_type !== 'anonym' && form.report_type !== 'brief' && form.report_type !== 'formal') {
        throw new AppError('VALIDATION_ERROR', {
          details: { report_type: '참고인·피신고인 진술은 이메일로 받은 요청 링크에서 제출할 수 있습니다.' },
        });
      }
      const { id } = await submitReport(deps, session.user, form, request.headers['idempotency-key']);
      return reply.status(201).send({ id });
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
      const session = await requireSession(request);
      return getOwnReport(deps.database, session.user.id, request.params.id);
    },
  );

  app.get(
    '/api/v1/report/:id/messages',
    { schema: { tags: ['report'], params: idParam } },
    async (request) => {
      const session = await requireSession(request);
      return listReporterMessages(deps.database, session.user.id, request.params.id);
    },
  );

  app.post(
    '/api/v1/report/:id/messages',
    { schema: { tags: ['report'], params: idParam, body: messageBody } },
    async (request, reply) => {
      const session = await requireSession(request);
      await postReporterMessage(deps, session.user.id, request.params.id, request.body.body);
      return reply
        .status(201)
        .send(await listReporterMessages(deps.database, session.user.id, request.params.id));
    },
  );
};
