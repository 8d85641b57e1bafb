import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { findReceiptSession, type ReceiptSession } from '../domain/reports/receipts.ts';
import type { ReporterAccess } from '../domain/reports/reporter-reports.ts';
import { findSession } from '../domain/sessions/sessions.ts';
import { AppError } from '../lib/app-error.ts';
import { getSession, sessionCookie } from './session.ts';

/** An anonymous draft's token: a header like an invitee's, so it never rides along with the account cookie. */
export const INTAKE_HEADER = 'x-intake-token';
/** A receipt holder's session on one anonymous report (decision 0005). */
export const RECEIPT_COOKIE = 'receiptid';

/** Under https the `__Host-` name, for the reason the session cookie has it (docs/decisions/0006). */
export function receiptCookieName(config: Pick<Config, 'isHttps'>): string {
  return config.isHttps ? `__Host-${RECEIPT_COOKIE}` : RECEIPT_COOKIE;
}

export function intakeToken(request: FastifyRequest): string | undefined {
  const value = request.headers[INTAKE_HEADER];
  return typeof value === 'string' && value ? value : undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's receipt session as `getReceiptSession` looked it up; null until something asks. */
    receiptSession: Promise<ReceiptSession | null> | null;
  }
}

/** Puts `request.receiptSession` on every request, looked up only when a route asks for it. */
export const receiptPlugin = fp(
  async (app) => {
    app.decorateRequest('receiptSession', null);
  },
  { name: 'receipt', dependencies: ['@fastify/cookie'] },
);

/** The caller's receipt session, read once per request. */
export function getReceiptSession(request: FastifyRequest): Promise<ReceiptSession | null> {
  if (!request.receiptSession) {
    const id = request.cookies[receiptCookieName(request.server.deps.config)];
    request.receiptSession =
      id && id.length <= 64 ? findReceiptSession(request.server.deps.database, id) : Promise.resolve(null);
  }
  return request.receiptSession;
}

/**
 * Who is asking about report `reportId` as its reporter: the receipt holder of that very report, else the
 * logged-in account. A receipt opens its one report only; anywhere else it counts for nothing, as for a
 * stranger (401 without an account).
 */
export async function reporterAccess(request: FastifyRequest, reportId: string): Promise<ReporterAccess> {
  const receipt = await getReceiptSession(request);
  if (receipt && receipt.reportId === reportId) return { kind: 'receipt', reportId };
  const session = await getSession(request);
  if (!session) throw new AppError('UNAUTHORIZED');
  return { kind: 'account', userId: session.user.id };
}

/**
 * Whether the caller still holds the access `reporterAccess` gave them, read afresh rather than from this
 * request's cache: a live stream asks again before every push, so a logout or an expired receipt ends it.
 */
export async function stillHasReporterAccess(
  request: FastifyRequest,
  access: ReporterAccess,
): Promise<boolean> {
  const { database, config } = request.server.deps;
  if (access.kind === 'receipt') {
    const id = request.cookies[receiptCookieName(config)];
    return !!id && (await findReceiptSession(database, id))?.reportId === access.reportId;
  }
  const id = sessionCookie(request);
  return !!id && (await findSession(database, id, config))?.user.id === access.userId;
}

export function setReceiptCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  session: { id: string; expires: number },
): void {
  reply.setCookie(receiptCookieName(request.server.deps.config), session.id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.server.deps.config.isHttps,
    maxAge: Math.max(0, session.expires - Math.floor(Date.now() / 1000)),
  });
}

export function clearReceiptCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(receiptCookieName(request.server.deps.config), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.server.deps.config.isHttps,
  });
}
