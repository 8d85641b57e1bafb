import { type SQL, sql } from 'drizzle-orm';
import type { BaseLogger } from 'pino';
import type { Database } from '../../db/client.ts';
import type { FileStore } from '../../storage/file-store.ts';
import { AdminCommandError } from '../companies/admin.ts';

/** Three years after closure by default: see docs/decisions/0004-encryption-at-rest.md (retention). */
export const DEFAULT_RETENTION_DAYS = 1095;
export const MIN_RETENTION_DAYS = 30;
export const MAX_RETENTION_DAYS = 3650;
const DAY_MS = 86_400_000;

/** Sets how long a company keeps closed and dismissed cases, and records who asked for it and when. */
export async function setCompanyRetention(
  database: Database,
  input: { companyId: string; days: string | number; setBy: string },
): Promise<{ companyName: string; days: number; previousDays: number }> {
  const days = Number(input.days);
  if (!Number.isInteger(days) || days < MIN_RETENTION_DAYS || days > MAX_RETENTION_DAYS) {
    throw new AdminCommandError(
      `The retention period is a whole number of days from ${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS}.`,
    );
  }
  const setBy = input.setBy.trim();
  if (!setBy || setBy.length > 200)
    throw new AdminCommandError('Say who asked for it (--by, up to 200 characters).');
  const [before] = /^[0-9a-f-]{36}$/i.test(input.companyId)
    ? await database.query<{ name: string; retention_days: number }>(
        'SELECT name, retention_days FROM companies WHERE id = $1',
        [input.companyId],
      )
    : [];
  if (!before) throw new AdminCommandError(`No company with id ${input.companyId}. See company:list.`);
  await database.query(
    'UPDATE companies SET retention_days = $1, retention_set_by = $2, retention_set_at = now() WHERE id = $3',
    [days, setBy, input.companyId],
  );
  return { companyName: before.name, days, previousDays: before.retention_days };
}

type ExpiredCase = {
  id: string;
  company_id: string;
  case_number: string;
  report_type: string;
  status: string;
  created_at: Date;
  closed_at: Date;
  retention_days: number;
  retention_set_by: string | null;
  retention_set_at: Date | null;
};

/**
 * Deletes every closed or dismissed case whose company's retention period has passed since its closure: the
 * report with everything hanging off it (history, messages, measures, invitations, statements), its evidence
 * and its invitees' files — rows and stored bytes — unless another case still cites a file. A deletion record
 * keeps the case number, dates and the rule applied, and no content. Each case is its own transaction, taken
 * with SKIP LOCKED, so several processes can run this at once without deleting anything twice.
 */
export async function deleteExpiredCases(
  { database, fileStore }: { database: Database; fileStore: Pick<FileStore, 'remove'> },
  options: { now?: Date; limit?: number } = {},
): Promise<{ cases: number; files: number; fileErrors: number }> {
  const now = options.now ?? new Date();
  const result = { cases: 0, files: 0, fileErrors: 0 };
  while (result.cases < (options.limit ?? 10_000)) {
    const storageKeys = await database.db.transaction(async (tx) => {
      const rows = async <T>(query: SQL) => ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
      const [expired] = await rows<ExpiredCase>(sql`
        SELECT r.id, r.company_id, r.case_number, r.report_type, r.status, r.created_at, r.closed_at,
               c.retention_days, c.retention_set_by, c.retention_set_at
          FROM reports r JOIN companies c ON c.id = r.company_id
         WHERE r.status IN ('closed', 'dismissed') AND r.closed_at IS NOT NULL
           AND r.closed_at + make_interval(days => c.retention_days) <= ${now.toISOString()}::timestamptz
         ORDER BY r.closed_at
         LIMIT 1
         FOR UPDATE OF r SKIP LOCKED`);
      if (!expired) return null;
      const caseFiles = await rows<{ id: string; storage_key: string }>(sql`
        SELECT f.id, f.storage_key FROM files f
         WHERE (f.id IN (SELECT file_id FROM report_files WHERE report_id = ${expired.id})
                AND NOT EXISTS (SELECT 1 FROM report_files o
                                 WHERE o.file_id = f.id AND o.report_id <> ${expired.id}))
            OR f.owner_invitation_id IN (SELECT id FROM invitations WHERE report_id = ${expired.id})
           FOR UPDATE OF f`);
      const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
      await tx.execute(sql`
        INSERT INTO case_deletions (company_id, case_number, report_type, final_status, received_at, closed_at,
                                    deleted_at, retention_days, retention_set_by, retention_set_at, files_deleted)
        VALUES (${expired.company_id}, ${expired.case_number}, ${expired.report_type}, ${expired.status},
                ${iso(expired.created_at)}, ${iso(expired.closed_at)}, ${now.toISOString()},
                ${expired.retention_days}, ${expired.retention_set_by}, ${iso(expired.retention_set_at)},
                ${caseFiles.length})`);
      // Cascades to report_files, history, messages, measures, invitations and statements.
      await tx.execute(sql`DELETE FROM reports WHERE id = ${expired.id}`);
      if (caseFiles.length > 0) {
        const ids = sql.join(
          caseFiles.map((file) => sql`${file.id}`),
          sql`, `,
        );
        await tx.execute(sql`DELETE FROM files WHERE id IN (${ids})`);
      }
      return caseFiles.map((file) => file.storage_key);
    });
    if (storageKeys === null) break;
    result.cases += 1;
    // Bytes go after the commit: a crash in between leaves unreferenced bytes (swept as orphans), never a
    // row pointing at nothing.
    for (const key of storageKeys) {
      try {
        await fileStore.remove(key);
        result.files += 1;
      } catch {
        result.fileErrors += 1;
      }
    }
  }
  return result;
}

/**
 * Runs the retention deletion now and then once a day in every API process (SKIP LOCKED keeps them apart).
 * The returned stop waits for a run in progress.
 */
export function startRetention(options: {
  database: Database;
  fileStore: Pick<FileStore, 'remove'>;
  logger: Pick<BaseLogger, 'warn' | 'info'>;
  intervalMs?: number;
}): () => Promise<void> {
  let current: Promise<void> = Promise.resolve();
  const run = () => {
    current = deleteExpiredCases(options)
      .then((result) => {
        if (result.cases > 0 || result.fileErrors > 0) options.logger.info(result, 'expired cases deleted');
      })
      .catch((error: unknown) => {
        options.logger.warn({ error: (error as Error).message }, 'deleting expired cases failed');
      });
  };
  run();
  const timer = setInterval(run, options.intervalMs ?? DAY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await current;
  };
}
