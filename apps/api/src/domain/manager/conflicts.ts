import { HANDLER_ROLES } from '@ansim/shared/constants';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { auditEvents, caseExclusions, reports, users } from '../../db/schema.ts';
import { blindIndexCandidates, normalizeForIndex } from '../../encryption/codec.ts';

type Executor = Pick<Db, 'select' | 'insert'>;
type ExclusionReason = (typeof caseExclusions.$inferInsert)['reason'];

/**
 * Records exclusions and, for each new one, an audit row: the company sees who was kept away from which case and
 * why, never more (the case itself already names its accused person to those who may read it).
 */
async function exclude(
  executor: Executor,
  companyId: string,
  rows: { reportId: string; userId: string; reason: ExclusionReason; createdBy: string | null }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const added = await executor.insert(caseExclusions).values(rows).onConflictDoNothing().returning({
    reportId: caseExclusions.reportId,
    userId: caseExclusions.userId,
    reason: caseExclusions.reason,
  });
  if (added.length > 0) {
    await executor.insert(auditEvents).values(
      added.map((row) => ({
        companyId,
        actorId: rows.find((r) => r.reportId === row.reportId && r.userId === row.userId)?.createdBy ?? null,
        action: 'case.exclusion',
        targetType: 'report',
        targetId: row.reportId,
        detail: { user_id: row.userId, reason: row.reason },
      })),
    );
  }
  return added.length;
}

/**
 * A new case: every company user who could ever handle cases and whose name or e-mail matches the accused person
 * is excluded before anyone is notified. Runs in the submission's transaction, with the form still in plaintext.
 */
export async function excludeAccusedFromNewCase(
  executor: Executor,
  input: { companyId: string; reportId: string; accusedName: string; accusedEmail: string | null },
): Promise<number> {
  const name = normalizeForIndex(input.accusedName);
  const email = input.accusedEmail?.trim().toLowerCase() || null;
  if (!name && !email) return 0;
  const people = await executor
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(and(eq(users.companyId, input.companyId), inArray(users.role, [...HANDLER_ROLES])));
  const rows = people.flatMap((person) => {
    const reason: ExclusionReason | null =
      email && person.email === email
        ? 'accused_email'
        : name && normalizeForIndex(person.name) === name
          ? 'accused_name'
          : null;
    return reason ? [{ reportId: input.reportId, userId: person.id, reason, createdBy: null }] : [];
  });
  return exclude(executor, input.companyId, rows);
}

/**
 * A user who becomes a handler (a role change, an accepted invitation): the company's cases that name them as
 * the accused person, found through the blind index of their name, are closed to them from that moment.
 */
export async function excludeHandlerFromAccusedCases(
  database: Database,
  input: { companyId: string; userId: string; name: string },
  executor: Executor = database.db,
): Promise<number> {
  const indexes = await blindIndexCandidates(database, input.companyId, 'reports.accused_name', input.name);
  if (indexes.length === 0) return 0;
  const cases = await executor
    .select({ id: reports.id })
    .from(reports)
    .where(and(eq(reports.companyId, input.companyId), inArray(reports.accusedNameIndex, indexes)));
  return exclude(
    executor,
    input.companyId,
    cases.map((row) => ({
      reportId: row.id,
      userId: input.userId,
      reason: 'accused_name' as const,
      createdBy: null,
    })),
  );
}

/** A manager keeps a colleague away from a case by hand (a relative of the accused, a witness, a rival). */
export async function excludeByHand(
  executor: Executor,
  input: { companyId: string; reportId: string; userId: string; by: string },
): Promise<number> {
  return exclude(executor, input.companyId, [
    { reportId: input.reportId, userId: input.userId, reason: 'manual', createdBy: input.by },
  ]);
}
