import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { FileCaller, FileOwner } from '../domain/files/files.ts';
import { findOpenIntakeSession } from '../domain/intake/intake-sessions.ts';
import { findInvitationByToken, type Invitation } from '../domain/invitations/find-invitation.ts';
import { AppError } from '../lib/app-error.ts';
import { getReceiptSession, intakeToken } from './reporter.ts';
import { getSession, requireSession } from './session.ts';

export const INVITATION_HEADER = 'x-invitation-token';

declare module 'fastify' {
  interface FastifyRequest {
    /** The invitation whose link token the request carries, once `loadInvitee` has run; else null. */
    invitee: Invitation | null;
  }
}

export function invitationToken(request: FastifyRequest): string | undefined {
  const value = request.headers[INVITATION_HEADER];
  return typeof value === 'string' && value ? value : undefined;
}

/** Puts `request.invitee` on every request; the routes an invitee may call fill it with `loadInvitee`. */
export const inviteePlugin = fp(
  async (app) => {
    app.decorateRequest('invitee', null);
  },
  { name: 'invitee' },
);

/**
 * A preHandler for the routes an invitee may call: the token travels in a header, never in the URL, so it stays
 * out of logs and history. Without the header nothing happens (the route decides who else may call it); with
 * one, an unknown or revoked token is 404 and an expired one 410, before the route does anything.
 */
export async function loadInvitee(request: FastifyRequest): Promise<void> {
  const token = invitationToken(request);
  if (token) request.invitee = await findInvitationByToken(request.server.deps.database, token);
}

/** The invitee of a route that answers to nobody else: no token is the same 404 as a wrong one. */
export function requireInvitee(request: FastifyRequest): Invitation {
  if (!request.invitee) throw new AppError('NOT_FOUND');
  return request.invitee;
}

/**
 * Who is calling a file route, and whose files it uploads, lists and deletes:
 * - an invitee by their link's token (`loadInvitee` runs first), or an anonymous draft by its intake token (both
 *   headers); either wins over an account cookie sent along, so a member's anonymous draft never files anything
 *   under the account;
 * - the receipt holder of `reportId`, when the route names that report;
 * - else the logged-in user.
 */
export async function fileCaller(
  request: FastifyRequest,
  options: { reportId?: string } = {},
): Promise<{ caller: FileCaller; owner: FileOwner }> {
  const { database } = request.server.deps;
  const invitation = request.invitee;
  if (invitation) {
    return {
      caller: {
        kind: 'invitation',
        id: invitation.id,
        reportId: invitation.reportId,
        shareEvidence: invitation.shareEvidence,
        invitationKind: invitation.kind,
      },
      owner: { invitationId: invitation.id },
    };
  }
  const intake = intakeToken(request);
  if (intake) {
    const session = await findOpenIntakeSession(database, intake);
    return { caller: { kind: 'intake', id: session.id }, owner: { intakeId: session.id } };
  }
  if (options.reportId) {
    const receipt = await getReceiptSession(request);
    if (receipt?.reportId === options.reportId)
      return {
        caller: { kind: 'receipt', reportId: receipt.reportId },
        owner: { reportId: receipt.reportId },
      };
  }
  const session = await requireSession(request);
  return { caller: { kind: 'user', ...session.user }, owner: { userId: session.user.id } };
}

/**
 * Everyone the request speaks for when it reads a file: its token holder, or else its receipt holder and its
 * account (a member may hold both at once), in that order. None at all is 401.
 */
export async function fileReaders(request: FastifyRequest): Promise<FileCaller[]> {
  if (request.invitee || intakeToken(request)) return [(await fileCaller(request)).caller];
  const readers: FileCaller[] = [];
  const receipt = await getReceiptSession(request);
  if (receipt) readers.push({ kind: 'receipt', reportId: receipt.reportId });
  const session = await getSession(request);
  if (session) readers.push({ kind: 'user', ...session.user });
  if (readers.length === 0) throw new AppError('UNAUTHORIZED');
  return readers;
}
