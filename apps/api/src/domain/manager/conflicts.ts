import { HANDLER_ROLES } from '@ansim/shared/constants';
import { and, eq, inArray, or } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { auditEvents, caseExclusions, reports, users } from '../../db/schema.ts';
import { blindIndexCandidates, normalizeForIndex, openJson, sealWithIndex } from '../../encryption/codec.ts';
import { DataErasedError } from '../../encryption/keyring.ts';

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
  /** The company's users of a handler role, when the caller's own statement already read them. */
  handlers?: { id: string; name: string; email: string }[],
): Promise<number> {
  const name = normalizeForIndex(input.accusedName);
  const email = input.accusedEmail?.trim().toLowerCase() || null;
  if (!name && !email) return 0;
  const people =
    handlers ??
    (await executor
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(and(eq(users.companyId, input.companyId), inArray(users.role, [...HANDLER_ROLES]))));
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
 * A user who becomes a handler (a role change, an accepted invitation): the company's cases whose accused person
 * has their e-mail or their name, found through the blind indexes of both (the form itself is sealed), are closed
 * to them from that moment, with the same reasons as at submission.
 */
export async function excludeHandlerFromAccusedCases(
  database: Database,
  input: { companyId: string; userId: string; name: string; email: string },
  executor: Executor = database.db,
): Promise<number> {
  const [emailIndexes, nameIndexes] = await Promise.all([
    blindIndexCandidates(database, input.companyId, 'reports.accused_email', input.email),
    blindIndexCandidates(database, input.companyId, 'reports.accused_name', input.name),
  ]);
  const matches = [
    ...(emailIndexes.length ? [inArray(reports.accusedEmailIndex, emailIndexes)] : []),
    ...(nameIndexes.length ? [inArray(reports.accusedNameIndex, nameIndexes)] : []),
  ];
  if (matches.length === 0) return 0;
  const cases = await executor
    .select({ id: reports.id, emailIndex: reports.accusedEmailIndex })
    .from(reports)
    .where(and(eq(reports.companyId, input.companyId), or(...matches)));
  return exclude(
    executor,
    input.companyId,
    cases.map((row) => ({
      reportId: row.id,
      userId: input.userId,
      reason:
        row.emailIndex && emailIndexes.includes(row.emailIndex)
          ? ('accused_email' as const)
          : ('accused_name' as const),
      createdBy: null,
    })),
  );
}

/**
 * Reports from before migration 0014 get the sealed accused e-mail and its blind index from their sealed forms,
 * in batches, once, at start (server.ts), and every handler of the company with that e-mail is excluded from them.
 * A form that cannot be read (its company's key erased) is skipped.
 */
export async function indexAccusedEmails(database: Database): Promise<number> {
  let indexed = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await database.query<{ id: string; company_id: string; form: unknown }>(
      `SELECT r.id, r.company_id, r.form FROM reports r
        WHERE r.accused_email IS NULL AND r.id > $1::uuid
          AND EXISTS (SELECT 1 FROM data_keys k WHERE k.company_id = r.company_id)
        ORDER BY r.id LIMIT 200`,
      [after],
    );
    if (rows.length === 0) return indexed;
    for (const row of rows) {
      after = row.id;
      let email: string;
      try {
        const form = await openJson<{ perpetrator_email?: unknown }>(
          database,
          'reports.form',
          row.id,
          row.form,
        );
        email =
          typeof form?.perpetrator_email === 'string' ? form.perpetrator_email.trim().toLowerCase() : '';
      } catch (error) {
        if (error instanceof DataErasedError) continue;
        throw error;
      }
      const { sealed, index } = await sealWithIndex(
        database,
        row.company_id,
        'reports.accused_email',
        row.id,
        email,
      );
      const updated = await database.query(
        `UPDATE reports SET accused_email = $2, accused_email_index = $3
          WHERE id = $1 AND accused_email IS NULL RETURNING id`,
        [row.id, sealed, index],
      );
      indexed += updated.length;
      // Handlers made before 0014 were matched by name only: the submission's e-mail rule catches them now.
      if (updated.length > 0 && email)
        await excludeAccusedFromNewCase(database.db, {
          companyId: row.company_id,
          reportId: row.id,
          accusedName: '',
          accusedEmail: email,
        });
    }
  }
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
