import { type HandlerRole, isCaseManagerRole, isClosedStatus } from '@ansim/shared/constants';
import { and, eq, exists, inArray, not, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { caseExclusions, reportAssignees, reports, users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';

type ReportRow = typeof reports.$inferSelect;

/** A company user who handles cases: an investigator (assigned cases only), a manager or an admin. */
export interface HandlerContext {
  userId: string;
  name: string;
  companyId: string;
  role: HandlerRole;
}

/** Kept for the many callers written before roles: every case handler, scoped by `caseAccessCondition`. */
export type ManagerContext = HandlerContext;

/** Whether the handler sees every case of the company (and assigns them), not only the cases assigned to them. */
export const seesEveryCase = (handler: Pick<HandlerContext, 'role'>): boolean =>
  isCaseManagerRole(handler.role);

/**
 * The cases of `reports` this handler may see, on every surface (list, case, files, stream, export, PDF, mails):
 * their company's; for an investigator only those assigned to them; never a case they are excluded from by a
 * conflict of interest (they may be the accused person). Anything else is the same 404 as a missing case.
 * The ids may be placeholders, for a statement built once and run for many handlers (the list's).
 */
export function caseAccessCondition(
  handler: Pick<HandlerContext, 'role'> & { userId: string | Placeholder; companyId: string | Placeholder },
): SQL {
  // The handler's exclusions are read once per statement (an InitPlan) and each case is checked against that
  // list in place: a NOT EXISTS was an anti-join run for every case a list passes, 1.3 ms of the 2.5 ms a page
  // reached by its number spends skipping 10,000 cases. `report_id` is never null, so `<> ALL` is NOT IN
  // without its NULL trap; an empty list (no conflict, the usual case) lets every case through.
  const notExcluded = sql`${reports.id} <> ALL (ARRAY(SELECT ${caseExclusions.reportId} FROM ${caseExclusions} WHERE ${caseExclusions.userId} = ${handler.userId}))`;
  const conditions = [eq(reports.companyId, handler.companyId), notExcluded];
  if (!seesEveryCase(handler)) {
    conditions.push(
      exists(
        sql`(SELECT 1 FROM ${reportAssignees} WHERE ${reportAssignees.reportId} = ${reports.id} AND ${reportAssignees.userId} = ${handler.userId})`,
      ),
    );
  }
  return and(...conditions)!;
}

/** Whether the handler may see this one case (see `caseAccessCondition`). */
export async function canHandleCase(
  database: Database,
  handler: HandlerContext,
  reportId: string,
): Promise<boolean> {
  const [row] = await database.db
    .select({ id: reports.id })
    .from(reports)
    .where(and(eq(reports.id, reportId), caseAccessCondition(handler)))
    .limit(1);
  return Boolean(row);
}

/**
 * Where the notices of one case go: the company's managers and admins, and investigators assigned to it, never
 * anyone excluded from it (a notice to the accused person that a case about them arrived is the leak itself).
 */
export async function caseHandlerEmails(
  executor: Pick<Db, 'select'>,
  companyId: string,
  reportId: string,
): Promise<string[]> {
  const rows = await executor
    .select({ email: users.email })
    .from(users)
    .where(caseHandlerCondition(companyId, reportId));
  return rows.map((row) => row.email);
}

/**
 * The `users` who hear of one case (see `caseHandlerEmails`); the ids may be placeholders, for the submission's
 * statement built once (domain/reports/submit-report.ts).
 */
export function caseHandlerCondition(companyId: string | Placeholder, reportId: string | Placeholder): SQL {
  return and(
    eq(users.companyId, companyId),
    or(
      inArray(users.role, ['manager', 'admin']),
      and(
        eq(users.role, 'investigator'),
        exists(
          sql`(SELECT 1 FROM ${reportAssignees} WHERE ${reportAssignees.reportId} = ${reportId} AND ${reportAssignees.userId} = ${users.id})`,
        ),
      ),
    ),
    not(
      exists(
        sql`(SELECT 1 FROM ${caseExclusions} WHERE ${caseExclusions.reportId} = ${reportId} AND ${caseExclusions.userId} = ${users.id})`,
      ),
    ),
  )!;
}

/**
 * A case this handler may see: of their company, assigned to them if they are an investigator, and not one
 * they are excluded from. Anything else is the same 404 as a missing case.
 */
export async function findCompanyReport(
  database: Database,
  handler: HandlerContext,
  reportId: string,
): Promise<ReportRow> {
  const [row] = await database.db
    .select()
    .from(reports)
    .where(and(eq(reports.id, reportId), caseAccessCondition(handler)));
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** An ended case takes notes, messages and reopening only: every other change is 409 CASE_CLOSED. */
export function assertCaseOpen(report: Pick<ReportRow, 'status'>): void {
  if (isClosedStatus(report.status)) throw new AppError('CASE_CLOSED');
}
