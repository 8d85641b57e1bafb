import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CASE_EVENTS_CHANNEL } from '../domain/reports/case-events.ts';

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
export function caseStreams(app: FastifyInstance) {
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
