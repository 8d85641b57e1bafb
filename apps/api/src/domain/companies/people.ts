import { type CompanyRole, isHandlerRole } from '@ansim/shared/constants';
import type { PendingCompanyInvitation } from '@ansim/shared/contract/company';
import { and, asc, count, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { companies, companyInvitations, mfaPasskeys, mfaTotp, users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { HandlerContext } from '../manager/access.ts';
import { excludeHandlerFromAccusedCases } from '../manager/conflicts.ts';

export interface PersonView {
  id: string;
  name: string;
  email: string;
  role: CompanyRole;
  has_mfa: boolean;
  joined_at: string;
}

const ROLE_ORDER = sql`case ${users.role} when 'admin' then 0 when 'manager' then 1 when 'investigator' then 2 else 3 end`;

/** The company's people: handlers first, then members; with whether each has a second factor. */
export async function listPeople(database: Database, companyId: string): Promise<PersonView[]> {
  const { db } = database;
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      createdAt: users.createdAt,
      totp: mfaTotp.confirmedAt,
      passkeys: sql<number>`(select count(*) from ${mfaPasskeys} where ${mfaPasskeys.userId} = ${users.id})`,
    })
    .from(users)
    .leftJoin(mfaTotp, eq(mfaTotp.userId, users.id))
    .where(and(eq(users.companyId, companyId), isNotNull(users.emailConfirmedAt)))
    .orderBy(ROLE_ORDER, asc(users.name), asc(users.email))
    .limit(2000);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role as CompanyRole,
    has_mfa: Boolean(row.totp) || Number(row.passkeys) > 0,
    joined_at: row.createdAt.toISOString(),
  }));
}

/**
 * Changes the role of one of the company's people. `member` removes a handler: the cases they handled stay
 * with the company, only their access ends. The company keeps at least one admin; the company row is locked
 * so two admins demoting each other at once cannot both succeed.
 */
export async function changeRole(
  database: Database,
  admin: HandlerContext,
  userId: string,
  role: CompanyRole,
): Promise<PersonView> {
  const changed = await database.db.transaction(async (tx) => {
    await tx
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.id, admin.companyId))
      .for('update');
    const [person] = await tx
      .select({ id: users.id, name: users.name, email: users.email, role: users.role })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.companyId, admin.companyId)));
    if (!person || person.role === 'operator') throw new AppError('NOT_FOUND');
    if (person.role === role) return null;
    if (person.role === 'admin') {
      const [admins] = await tx
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.companyId, admin.companyId), eq(users.role, 'admin')));
      if (Number(admins?.n ?? 0) <= 1) throw new AppError('LAST_ADMIN');
    }
    await tx.update(users).set({ role }).where(eq(users.id, person.id));
    await recordAudit(tx, {
      companyId: admin.companyId,
      actorId: admin.userId,
      action: 'user.role',
      targetType: 'user',
      targetId: person.id,
      detail: { from: person.role, to: role },
    });
    return person;
  });
  // After the commit, as `user:set-role` does: the blind index needs the company key, read outside the
  // transaction (one connection on PGlite).
  if (changed && isHandlerRole(role) && !isHandlerRole(changed.role))
    await excludeHandlerFromAccusedCases(database, {
      companyId: admin.companyId,
      userId: changed.id,
      name: changed.name,
      email: changed.email,
    });
  const people = await listPeople(database, admin.companyId);
  const view = people.find((person) => person.id === userId);
  if (!view) throw new AppError('NOT_FOUND');
  return view;
}

export type PendingInvitationView = PendingCompanyInvitation;

/** Invitations of the company not yet accepted, revoked or expired. */
export async function listPendingInvitations(
  database: Database,
  companyId: string,
  now = new Date(),
): Promise<PendingInvitationView[]> {
  const rows = await database.db
    .select({
      id: companyInvitations.id,
      email: companyInvitations.email,
      role: companyInvitations.role,
      invitedBy: users.name,
      createdAt: companyInvitations.createdAt,
      expiresAt: companyInvitations.expiresAt,
    })
    .from(companyInvitations)
    .leftJoin(users, eq(users.id, companyInvitations.invitedBy))
    .where(
      and(
        eq(companyInvitations.companyId, companyId),
        isNull(companyInvitations.acceptedAt),
        isNull(companyInvitations.revokedAt),
        gt(companyInvitations.expiresAt, now),
      ),
    )
    .orderBy(desc(companyInvitations.createdAt))
    .limit(500);
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    invited_by: row.invitedBy,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  }));
}

/** Revokes a pending invitation of the company: its link stops working. Another company's is 404. */
export async function revokeCompanyInvitation(
  database: Database,
  admin: HandlerContext,
  invitationId: string,
): Promise<void> {
  await database.db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(companyInvitations)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(companyInvitations.id, invitationId),
          eq(companyInvitations.companyId, admin.companyId),
          isNull(companyInvitations.acceptedAt),
          isNull(companyInvitations.revokedAt),
        ),
      )
      .returning({ id: companyInvitations.id, role: companyInvitations.role });
    if (!revoked) throw new AppError('NOT_FOUND');
    await recordAudit(tx, {
      companyId: admin.companyId,
      actorId: admin.userId,
      action: 'company.invitation',
      targetType: 'invitation',
      targetId: revoked.id,
      detail: { event: 'revoked', role: revoked.role },
    });
  });
}
