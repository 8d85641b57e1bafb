import {
  type AcceptCompanyInvitationBody,
  type CompanyInvitationView,
  INVITABLE_ROLES,
  type InvitableRole,
} from '@ansim/shared/company-invitations';
import { ROLE_LABELS_KO } from '@ansim/shared/constants';
import { FIELD_MESSAGES_KO } from '@ansim/shared/messages.ko';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { companies, companyInvitations, users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { randomToken, sha256Hex } from '../../lib/tokens.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { companyInvitationMail } from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { excludeHandlerFromAccusedCases } from '../manager/conflicts.ts';
import { createSession, deleteSession } from '../sessions/sessions.ts';
import { normalizeEmail, rejectCommonPassword } from '../users/accounts.ts';

type Deps = { database: Database; config: Config };
type Executor = Pick<Db, 'select' | 'insert' | 'update' | 'execute'>;

/** Long enough for someone back from a week's leave; short enough that a forgotten link dies. */
export const COMPANY_INVITATION_DAYS = 7;

function seoulDate(date: Date): string {
  const local = new Date(date.getTime() + 9 * 3600 * 1000);
  return `${local.getUTCFullYear()}년 ${local.getUTCMonth() + 1}월 ${local.getUTCDate()}일`;
}

export function companyInvitationUrl(config: Config, token: string): string {
  return `${config.PUBLIC_URL}/join/${encodeURIComponent(token)}`;
}

/**
 * Invites someone to handle the company's cases (or run it). Only the token's hash is stored; the link goes out
 * through the outbox in the caller's transaction when one is given. A pending invitation of the same address to
 * the same company is revoked: the newest link is the only one that works.
 */
export async function createCompanyInvitation(
  deps: Deps,
  input: { companyId: string; email: string; role: InvitableRole; invitedBy: string | null },
  executor?: Executor,
): Promise<{ id: string }> {
  if (!(INVITABLE_ROLES as readonly string[]).includes(input.role)) throw new AppError('VALIDATION_ERROR');
  const email = normalizeEmail(input.email);
  const work = async (tx: Executor) => {
    const [company] = await tx
      .select({ name: companies.name })
      .from(companies)
      .where(eq(companies.id, input.companyId));
    if (!company) throw new AppError('NOT_FOUND');
    const now = new Date();
    await tx
      .update(companyInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(companyInvitations.companyId, input.companyId),
          eq(companyInvitations.email, email),
          isNull(companyInvitations.acceptedAt),
          isNull(companyInvitations.revokedAt),
        ),
      );
    const token = randomToken();
    const expiresAt = new Date(now.getTime() + COMPANY_INVITATION_DAYS * 24 * 3600 * 1000);
    const [row] = await tx
      .insert(companyInvitations)
      .values({
        companyId: input.companyId,
        email,
        role: input.role,
        tokenHash: sha256Hex(token),
        invitedBy: input.invitedBy,
        expiresAt,
      })
      .returning({ id: companyInvitations.id });
    await enqueueMail(
      tx,
      'company_invitation',
      email,
      companyInvitationMail({
        companyName: company.name,
        roleLabel: ROLE_LABELS_KO[input.role],
        byOperator: await isOperator(tx, input.invitedBy),
        dueDate: seoulDate(expiresAt),
        url: companyInvitationUrl(deps.config, token),
      }),
    );
    await recordAudit(tx, {
      companyId: input.companyId,
      actorId: input.invitedBy,
      action: 'company.invitation',
      targetType: 'invitation',
      targetId: row!.id,
      // Never the address: the audit log names who acted, the invitation row holds whom it was for.
      detail: { event: 'sent', role: input.role },
    });
    return { id: row!.id };
  };
  const result = executor ? await work(executor) : await deps.database.db.transaction(work);
  wakeMailWorkers();
  return result;
}

async function isOperator(tx: Executor, userId: string | null): Promise<boolean> {
  if (!userId) return true;
  const [user] = await tx.select({ role: users.role }).from(users).where(eq(users.id, userId));
  return user?.role === 'operator';
}

/** A link that never existed is 404; one that was used, replaced or ran out is 410; a suspended company 403. */
async function findOpenInvitation(executor: Pick<Db, 'select'>, token: string) {
  const [row] = await executor
    .select({
      id: companyInvitations.id,
      companyId: companyInvitations.companyId,
      email: companyInvitations.email,
      role: companyInvitations.role,
      expiresAt: companyInvitations.expiresAt,
      acceptedAt: companyInvitations.acceptedAt,
      revokedAt: companyInvitations.revokedAt,
      companyName: companies.name,
      suspendedAt: companies.suspendedAt,
    })
    .from(companyInvitations)
    .innerJoin(companies, eq(companies.id, companyInvitations.companyId))
    .where(eq(companyInvitations.tokenHash, sha256Hex(token)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  if (row.acceptedAt || row.revokedAt || row.expiresAt.getTime() <= Date.now())
    throw new AppError('INVITATION_EXPIRED');
  if (row.suspendedAt) throw new AppError('COMPANY_SUSPENDED');
  return row;
}

async function confirmedAccount(executor: Pick<Db, 'select'>, email: string) {
  const [user] = await executor
    .select({
      id: users.id,
      name: users.name,
      role: users.role,
      companyId: users.companyId,
      confirmed: users.emailConfirmedAt,
    })
    .from(users)
    .where(eq(users.email, email));
  return user ?? null;
}

/** What the invitee's page shows. The link itself is the credential: it names only its own address. */
export async function viewCompanyInvitation(
  database: Database,
  token: string,
): Promise<CompanyInvitationView> {
  const invitation = await findOpenInvitation(database.db, token);
  const account = await confirmedAccount(database.db, invitation.email);
  return {
    company_name: invitation.companyName,
    email: invitation.email,
    role: invitation.role,
    has_account: Boolean(account?.confirmed),
  };
}

/**
 * Accepts an invitation and logs the invitee in.
 * - No confirmed account at the address: a new one is made with the name and password given, its address
 *   confirmed (following the mailed link proved it). An unconfirmed registration of the address is taken over,
 *   as registration itself does: whoever typed the address first must not keep a password on it.
 * - A confirmed account: only its own logged-in owner accepts, and sends nothing else.
 * Either way the user joins the company with the invited role, is kept away from cases that name them as the
 * accused, and gets a fresh session (a role change is a privilege change: the old session id is dropped).
 */
export async function acceptCompanyInvitation(
  deps: Deps,
  token: string,
  input: AcceptCompanyInvitationBody,
  session: { userId: string | null; previousSessionId?: string },
): Promise<{ sessionId: string; expires: number; role: InvitableRole }> {
  const { database, config } = deps;
  const preview = await findOpenInvitation(database.db, token);
  const existing = await confirmedAccount(database.db, preview.email);
  let passwordHash: string | null = null;
  let name: string | null = null;
  if (existing?.confirmed) {
    if (!session.userId) throw new AppError('UNAUTHORIZED');
    if (session.userId !== existing.id) throw new AppError('INVITATION_WRONG_ACCOUNT');
    if (existing.role === 'operator' || (existing.companyId && existing.companyId !== preview.companyId))
      throw new AppError('IN_ANOTHER_COMPANY');
  } else {
    const details: Record<string, string> = {};
    if (!input.name) details.name = FIELD_MESSAGES_KO.nameRequired;
    if (!input.password) details.password = FIELD_MESSAGES_KO.required;
    if (Object.keys(details).length > 0) throw new AppError('VALIDATION_ERROR', { details });
    rejectCommonPassword(input.password!);
    passwordHash = await hashPassword(input.password!);
    name = input.name!;
  }

  const accepted = await database.db.transaction(async (tx) => {
    const [invitation] = await tx
      .update(companyInvitations)
      .set({ acceptedAt: new Date() })
      .where(
        and(
          eq(companyInvitations.id, preview.id),
          isNull(companyInvitations.acceptedAt),
          isNull(companyInvitations.revokedAt),
          gt(companyInvitations.expiresAt, new Date()),
        ),
      )
      .returning({ id: companyInvitations.id });
    // Two tabs accepting at once: the second finds the link used.
    if (!invitation) throw new AppError('INVITATION_EXPIRED');
    const placement = { companyId: preview.companyId, role: preview.role, pendingJoinCode: null };
    let user: { id: string; name: string };
    if (existing?.confirmed) {
      await tx.update(users).set(placement).where(eq(users.id, existing.id));
      user = { id: existing.id, name: existing.name };
    } else {
      const [created] = await tx
        .insert(users)
        .values({
          email: preview.email,
          passwordHash: passwordHash!,
          name: name!,
          emailConfirmedAt: new Date(),
          ...placement,
        })
        .onConflictDoUpdate({
          target: users.email,
          set: { passwordHash: passwordHash!, name: name!, emailConfirmedAt: new Date(), ...placement },
          // A confirmed account appearing since the check above keeps its password: the invitee starts again.
          setWhere: isNull(users.emailConfirmedAt),
        })
        .returning({ id: users.id });
      if (!created) throw new AppError('CONFLICT');
      user = { id: created.id, name: name! };
    }
    await recordAudit(tx, {
      companyId: preview.companyId,
      actorId: user.id,
      action: 'company.invitation',
      targetType: 'invitation',
      targetId: preview.id,
      detail: { event: 'accepted', role: preview.role },
    });
    return user;
  });

  // After the commit: the blind index needs the company's keys, read outside the transaction (on the embedded
  // database a second connection would wait for this one forever). A new handler reads no case before enrolling
  // a second factor, and gets no session before this line.
  await excludeHandlerFromAccusedCases(database, {
    companyId: preview.companyId,
    userId: accepted.id,
    name: accepted.name,
    email: preview.email,
  });
  if (session.previousSessionId) await deleteSession(database, session.previousSessionId);
  const created = await createSession(database, accepted.id, config);
  return { sessionId: created.id, expires: created.expires, role: preview.role };
}
