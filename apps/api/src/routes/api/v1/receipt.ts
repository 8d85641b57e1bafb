import { receiptBody, receiptSessionSchema as receiptSession } from '@ansim/shared/contract/receipt';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deleteReceiptSession, openReceipt } from '../../../domain/reports/receipts.ts';
import { AppError } from '../../../lib/app-error.ts';
import { useSmallBodies } from '../../../plugins/body-limits.ts';
import {
  clearReceiptCookie,
  getReceiptSession,
  receiptCookieName,
  setReceiptCookie,
} from '../../../plugins/reporter.ts';
import { errorResponses } from '../../schemas.ts';

/** The way back to an anonymous report: its 16-digit receipt (docs/decisions/0005). */
export const receiptRoutes: FastifyPluginAsyncZod = async (app) => {
  // A login, a code, a receipt or a captcha solution: a few KB at most (docs/decisions/0031).
  useSmallBodies(app);
  const { deps } = app;

  app.post(
    '/api/v1/receipt/',
    {
      schema: {
        tags: ['receipt'],
        body: receiptBody,
        response: { 200: receiptSession, ...errorResponses },
      },
    },
    async (request, reply) => {
      const opened = await openReceipt(deps, request.body, { visitorKey: request.visitorKey });
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
      const id = request.cookies[receiptCookieName(deps.config)];
      if (id) await deleteReceiptSession(deps.database, id);
      clearReceiptCookie(request, reply);
      return reply.status(204).send();
    },
  );
};
