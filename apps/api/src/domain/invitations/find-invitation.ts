import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { invitations } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { sha256Hex } from '../../lib/tokens.ts';
import { assertCaseOpen, findCompanyReport, type ManagerContext } from '../manager/case-scope.ts';

/** One invitee's record: whom the manager asked, for which report, and where their answer stands. */
export type Invitation = typeof invitations.$inferSelect;

/**
 * The invitation a token opens. Unknown and revoked tokens are the same 404; an expired one is 410 so the
 * page can say to ask for a new link. A token reaches only its own invitation.
 */
export async function findInvitationByToken(
  database: Database,
  token: string | undefined,
): Promise<Invitation> {
  if (!token || token.length > 100) throw new AppError('NOT_FOUND');
  const [row] = await database.db
    .select()
    .from(invitations)
    .where(eq(invitations.tokenHash, sha256Hex(token)));
  if (!row || row.revokedAt) throw new AppError('NOT_FOUND');
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError('INVITATION_EXPIRED');
  return row;
}

/** An invitation of a case the manager handles, for resending or revoking it. */
export async function findCompanyInvitation(
  database: Database,
  manager: ManagerContext,
  reportId: string,
  invitationId: string,
) {
  const report = await findCompanyReport(database, manager, reportId);
  // Resending and revoking change who may still give a statement: not on an ended case.
  assertCaseOpen(report);
  const [row] = await database.db
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, invitationId), eq(invitations.reportId, report.id)));
  if (!row) throw new AppError('NOT_FOUND');
  return { report, invitation: row };
}
