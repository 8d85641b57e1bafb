import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deleteReceiptSession, openReceipt } from '../../../domain/reports/receipts.ts';
import { AppError } from '../../../lib/app-error.ts';
import {
  clearReceiptCookie,
  getReceiptSession,
  RECEIPT_COOKIE,
  setReceiptCookie,
} from '../../../plugins/reporter.ts';
import { errorResponses } from '../../schemas.ts';

const receiptSession = z.object({
  report_id: z.uuid(),
  expires: z.number().int().describe('epoch seconds'),
});

/** The way back to an anonymous report: its 16-digit receipt (docs/decisions/0005). */
export const receiptRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.post(
    '/api/v1/receipt/',
    {
      schema: {
        tags: ['receipt'],
        body: z.object({
          receipt: z.string().max(64, '접수번호가 올바르지 않습니다.').describe('16 digits; spaces ignored'),
          captcha: z.string().max(10_000).optional(),
        }),
        response: { 200: receiptSession, ...errorResponses },
      },
    },
    async (request, reply) => {
      const opened = await openReceipt(deps, request.body, { ip: request.ip });
      setReceiptCookie(request, reply, { id: opened.sessionId, expires: opened.expires });
      return { report_id: opened.reportId, expires: opened.expires };
    },
  );

  app.get(
    '/api/v1/receipt/',
    { schema: { tags: ['receipt'], response: { 200: receiptSession, ...errorResponses } } },
    async (request) => {
      const session = await getReceiptSession(request);
      if (!session) throw new AppError('UNAUTHORIZED');
      return { report_id: session.reportId, expires: session.expires };
    },
  );

  app.delete(
    '/api/v1/receipt/',
    { schema: { tags: ['receipt'], response: { 204: z.undefined(), ...errorResponses } } },
    async (request, reply) => {
      const id = request.cookies[RECEIPT_COOKIE];
      if (id) await deleteReceiptSession(deps.database, id);
      clearReceiptCookie(request, reply);
      return reply.status(204).send();
    },
  );
};
