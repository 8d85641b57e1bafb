import { HANDLER_ROLES } from '@ansim/shared/constants';
import { assigneesBody, type CaseHandler, exclusionBody } from '@ansim/shared/contract/manager';
import { and, asc, eq, exists, inArray, not, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { caseExclusions, reportAssignees, users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { announceCaseChange } from '../reports/case-events.ts';
import { assertCaseOpen, findCompanyReport, type HandlerContext } from './case-scope.ts';
import { excludeByHand } from './conflicts.ts';

export { assigneesBody, exclusionBody };
export type CaseHandlerView = CaseHandler;

/** Who is assigned to the case, by name and role (never an address: the page needs no more). */
export async function caseAssignees(database: Database, reportId: string): Promise<CaseHandlerView[]> {
  const rows = await database.db
    .select({ id: users.id, name: users.name, role: users.role })
    .from(reportAssignees)
    .innerJoin(users, eq(users.id, reportAssignees.userId))
    .where(eq(reportAssignees.reportId, reportId))
    .orderBy(asc(users.name), asc(users.id));
  return rows as CaseHandlerView[];
}

/** The company's handlers who may be assigned to this case: every handler not excluded from it. */
export async function assignableHandlers(
  database: Database,
  companyId: string,
  reportId: string,
): Promise<CaseHandlerView[]> {
  const rows = await database.db
    .select({ id: users.id, name: users.name, role: users.role })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        inArray(users.role, [...HANDLER_ROLES]),
        not(
          exists(
            sql`(SELECT 1 FROM ${caseExclusions} WHERE ${caseExclusions.reportId} = ${reportId} AND ${caseExclusions.userId} = ${users.id})`,
          ),
        ),
      ),
    )
    .orderBy(asc(users.name), asc(users.id));
  return rows as CaseHandlerView[];
}

/** The exclusions of a case, for its managers: who, why, and when (the excluded person never sees this). */
export async function caseExclusionViews(database: Database, reportId: string) {
  const rows = await database.db
    .select({
      id: users.id,
      name: users.name,
      role: users.role,
      reason: caseExclusions.reason,
      createdAt: caseExclusions.createdAt,
    })
    .from(caseExclusions)
    .innerJoin(users, eq(users.id, caseExclusions.userId))
    .where(eq(caseExclusions.reportId, reportId))
    .orderBy(asc(caseExclusions.createdAt));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    role: row.role,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
  }));
}

/**
 * Replaces the assignees of a case (a manager or admin decides who handles it). Every one must be a handler of the
 * same company and not excluded from the case: a conflict of interest is never undone by an assignment. A closed
 * case keeps its handlers until it is reopened.
 */
export async function setAssignees(
  database: Database,
  manager: HandlerContext,
  reportId: string,
  userIds: string[],
): Promise<CaseHandlerView[]> {
  assertCaseOpen(await findCompanyReport(database, manager, reportId));
  const wanted = [...new Set(userIds)];
  const allowed = new Set(
    (await assignableHandlers(database, manager.companyId, reportId)).map((handler) => handler.id),
  );
  const refused = wanted.filter((id) => !allowed.has(id));
  if (refused.length > 0) throw new AppError('INVALID_ASSIGNEE');
  await database.db.transaction(async (tx) => {
    const current = (
      await tx
        .select({ userId: reportAssignees.userId })
        .from(reportAssignees)
        .where(eq(reportAssignees.reportId, reportId))
    ).map((row) => row.userId);
    const added = wanted.filter((id) => !current.includes(id));
    const removed = current.filter((id) => !wanted.includes(id));
    if (added.length === 0 && removed.length === 0) return;
    if (removed.length > 0)
      await tx
        .delete(reportAssignees)
        .where(and(eq(reportAssignees.reportId, reportId), inArray(reportAssignees.userId, removed)));
    if (added.length > 0)
      await tx
        .insert(reportAssignees)
        .values(added.map((userId) => ({ reportId, userId, assignedBy: manager.userId })))
        .onConflictDoNothing();
    await recordAudit(tx, {
      companyId: manager.companyId,
      actorId: manager.userId,
      action: 'case.assign',
      targetType: 'report',
      targetId: reportId,
      detail: { added, removed },
    });
    await announceCaseChange(tx, reportId);
  });
  return caseAssignees(database, reportId);
}

/**
 * A manager keeps a colleague of the company away from a case by hand. The colleague loses any assignment to it
 * at once; an open case page of theirs ends like a logout (the stream re-checks access before every push).
 */
export async function addExclusion(
  database: Database,
  manager: HandlerContext,
  reportId: string,
  userId: string,
): Promise<void> {
  // Closed cases too: an exclusion only protects; an accused person made a handler must never read it.
  await findCompanyReport(database, manager, reportId);
  const [person] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.companyId, manager.companyId)));
  if (!person || userId === manager.userId)
    throw new AppError('VALIDATION_ERROR', {
      message: '이 회사의 다른 사용자만 사건에서 제외할 수 있습니다.',
      details: { user_id: '이 회사의 다른 사용자를 선택해주세요.' },
    });
  await database.db.transaction(async (tx) => {
    const [dropped] = await tx
      .delete(reportAssignees)
      .where(and(eq(reportAssignees.reportId, reportId), eq(reportAssignees.userId, userId)))
      .returning({ userId: reportAssignees.userId });
    if (dropped)
      await recordAudit(tx, {
        companyId: manager.companyId,
        actorId: manager.userId,
        action: 'case.assign',
        targetType: 'report',
        targetId: reportId,
        detail: { added: [], removed: [userId] },
      });
    await excludeByHand(tx, { companyId: manager.companyId, reportId, userId, by: manager.userId });
    await announceCaseChange(tx, reportId);
  });
}
