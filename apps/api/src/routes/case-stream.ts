import type { ServerResponse } from 'node:http';
import { isHandlerRole } from '@ansim/shared/constants';
import { streamedResponse } from '@ansim/shared/contract/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recordAudit } from '../domain/audit/record-audit.ts';
import { canHandleCase, requireManager } from '../domain/manager/access.ts';
import { getManagerCase } from '../domain/manager/case-view.ts';
import { CASE_EVENTS_CHANNEL } from '../domain/reports/case-events.ts';
import { findOwnReport } from '../domain/reports/reporter-reports.ts';
import { findSession } from '../domain/sessions/sessions.ts';
import { reporterAccess, stillHasReporterAccess } from '../plugins/reporter.ts';
import { getSession, sessionCookie } from '../plugins/session.ts';
import { errorResponses, idParam } from './schemas.ts';

export interface CaseStreamOptions {
  reportId: string;
  /** The first event's data, already checked and rendered by the route (so a refusal is an ordinary answer). */
  first: string;
  /** The next event's data after a change, or null when the caller may no longer watch: the stream ends. */
  next: () => Promise<string | null>;
  /** Sent every 25 s so proxies do not close an idle stream; by default the last event again. */
  keepAlive?: string;
}

/**
 * The live case stream shared by the manager's and the reporter's case pages: a `text/event-stream` that
 * pushes whenever the case changes in any API process (LISTEN/NOTIFY). Returns the opener for one app
 * scope; its open streams are ended before a graceful shutdown, since they never end on their own.
 */
function caseStreams(app: FastifyInstance) {
  const openStreams = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const stream of openStreams) stream.end();
    openStreams.clear();
  });

  return async function openCaseStream(
    request: FastifyRequest,
    reply: FastifyReply,
    options: CaseStreamOptions,
  ): Promise<void> {
    const { reportId } = options;
    let last = options.first;
    let closed = false;
    let queue = Promise.resolve();
    let keepAlive: NodeJS.Timeout | undefined;
    const raw = reply.raw;
    const push = () => {
      queue = queue
        .then(async () => {
          if (closed) return;
          const data = await options.next();
          if (data === null) return close();
          last = data;
          raw.write(`data: ${last}\n\n`);
        })
        .catch(() => close());
    };
    // Subscribed before the reply is taken over: a failed subscription is then an ordinary error answer
    // (503 while the database is away), not an open 200 stream that never updates.
    const unsubscribe = await app.deps.database.notifications.subscribe(CASE_EVENTS_CHANNEL, (payload) => {
      // null: the listening connection was re-established and changes meanwhile may have gone unheard.
      if (payload === reportId || payload === null) push();
    });
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(keepAlive);
      unsubscribe();
      openStreams.delete(raw);
      raw.end();
    };
    // Registered before anything can fail or wait, so every path out of the stream unsubscribes.
    request.raw.on('close', close);
    reply.hijack();
    if (request.raw.destroyed) return close();
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    raw.write(`data: ${last}\n\n`);
    openStreams.add(raw);
    keepAlive = setInterval(() => raw.write(options.keepAlive ?? `data: ${last}\n\n`), 25_000);
  };
}

/** The reporter's stream event; the first one also covers changes between loading the page and subscribing. */
const CHANGED_EVENT = JSON.stringify({ type: 'changed' });

/**
 * Both live case streams, one route for the handlers and one for the reporter, with one set of open streams
 * to end at shutdown. Who may watch is decided as for the matching GET of the case, and again before every push.
 */
export const caseStreamRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const openCaseStream = caseStreams(app);

  /**
   * The case state as a `text/event-stream`: sent at once and again whenever the case changes in any API
   * process (LISTEN/NOTIFY). The session is checked again before every push, so a logout ends the stream.
   */
  app.get(
    '/api/v1/manager/report/:id/events',
    {
      schema: {
        tags: ['manager'],
        params: idParam,
        response: {
          200: streamedResponse(
            'text/event-stream',
            'Server-sent events: `data: <the case as GET /api/v1/manager/report/{id}>` at once and on every change',
          ),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const manager = await requireManager(await getSession(request));
      const reportId = request.params.id;
      const first = JSON.stringify(await getManagerCase(deps.database, manager, reportId));
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
          // A role taken away, the last second factor removed, an assignment removed or a new exclusion ends
          // the stream like a logout.
          if (
            !isHandlerRole(session?.user.role) ||
            session.user.companyId !== manager.companyId ||
            !session.hasSecondFactor
          )
            return null;
          const now = { ...manager, role: session.user.role };
          if (!(await canHandleCase(deps.database, now, reportId))) return null;
          return JSON.stringify(await getManagerCase(deps.database, manager, reportId));
        },
      });
    },
  );

  /**
   * The reporter's twin of the manager's case stream. Its events carry no case content, only that the case
   * changed: the page then re-reads it through GET /api/v1/report/:id, so nothing reaches the reporter here
   * that the report route would not show them.
   */
  app.get(
    '/api/v1/report/:id/events',
    {
      schema: {
        tags: ['report'],
        params: idParam,
        response: {
          200: streamedResponse(
            'text/event-stream',
            'Server-sent events: `data: {"type":"changed"}` whenever the case changes; read it again then',
          ),
          ...errorResponses,
        },
      },
    },
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
};
