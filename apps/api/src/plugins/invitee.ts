import type { FastifyRequest } from 'fastify';
import type { FileCaller, FileOwner } from '../domain/files/files.ts';
import { findInvitationByToken } from '../domain/invitations/invitations.ts';
import { requireSession } from './session.ts';

export const INVITATION_HEADER = 'x-invitation-token';

export function invitationToken(request: FastifyRequest): string | undefined {
  const value = request.headers[INVITATION_HEADER];
  return typeof value === 'string' && value ? value : undefined;
}

/**
 * Who is calling a file route: an invitee by their link's token (sent as a header, never in the URL, so it
 * stays out of logs and history), else the logged-in user.
 */
export async function fileCaller(request: FastifyRequest): Promise<{ caller: FileCaller; owner: FileOwner }> {
  const token = invitationToken(request);
  if (token) {
    const invitation = await findInvitationByToken(request.server.deps.database, token);
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
  const session = await requireSession(request);
  return { caller: { kind: 'user', ...session.user }, owner: { userId: session.user.id } };
}
