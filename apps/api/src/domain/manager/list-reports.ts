import { REPORT_STATUSES, REPORTER_TYPES } from '@ansim/shared/constants';
import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { reports } from '../../db/schema.ts';
import { blindIndexCandidates, ERASED_PLACEHOLDER, openTextOr } from '../../encryption/codec.ts';
import { type Page, pageLinks } from '../reports/reporter-reports.ts';
import { isAckOverdue, isFeedbackOverdue } from './case-view.ts';

const SORTS = {
  created_at: asc(reports.createdAt),
  '-created_at': desc(reports.createdAt),
  updated_at: asc(reports.updatedAt),
  '-updated_at': desc(reports.updatedAt),
  case_number: asc(reports.caseNumber),
  '-case_number': desc(reports.caseNumber),
  feedback_due_at: asc(reports.feedbackDueAt),
} as const;

/** A day that exists (no 13th month, no 30 February), in years a case can have been filed. */
function isCalendarDay(value: string): boolean {
  const [year = 0, month = 0, day = 0] = value.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 2000 && year <= 2999 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '날짜는 YYYY-MM-DD 형식이어야 합니다.')
  .refine(isCalendarDay, '날짜가 올바르지 않습니다. 달력에 있는 날짜를 YYYY-MM-DD 형식으로 입력해주세요.');

export const managerListQuery = z.object({
  status: z.enum(REPORT_STATUSES).optional(),
  type: z.enum(REPORTER_TYPES).optional(),
  q: z
    .string()
    .trim()
    .max(100)
    // PostgreSQL text cannot hold NUL; no control character belongs in a search anyway.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    .regex(/^[^\u0000-\u0008\u000b-\u001f\u007f]*$/, '검색어에 쓸 수 없는 문자가 들어 있습니다.')
    .optional(),
  date_from: isoDate.optional(),
  date_to: isoDate.optional(),
  overdue: z.enum(['true', 'false']).optional(),
  sort: z.enum(Object.keys(SORTS) as [keyof typeof SORTS, ...(keyof typeof SORTS)[]]).default('-created_at'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export type ManagerListQuery = z.infer<typeof managerListQuery>;

export interface ManagerListRow {
  id: string;
  case_number: string;
  report_type: string;
  status: string;
  accused_name: string;
  created_at: string;
  updated_at: string;
  ack_due_at: string;
  feedback_due_at: string;
  is_ack_overdue: boolean;
  is_feedback_overdue: boolean;
}

/** Open cases past a deadline: not acknowledged in time, or no feedback to the reporter in time. */
export function overdueCondition(now = new Date()): SQL {
  return or(
    and(isNull(reports.acknowledgedAt), lt(reports.ackDueAt, now)),
    and(isNull(reports.feedbackAt), isNull(reports.closedAt), lt(reports.feedbackDueAt, now)),
  )!;
}

/**
 * The filters of the list. `q` matches the start of a case number, or the accused person's whole name through
 * its blind index (the name itself is sealed): spacing, width and case aside, but not a part of the name.
 */
const CASE_NUMBER_PREFIX = /^\d[\d-]*$/;

export async function listConditions(
  database: Database,
  companyId: string,
  query: Omit<ManagerListQuery, 'sort' | 'page' | 'page_size'>,
): Promise<SQL> {
  const conditions: SQL[] = [eq(reports.companyId, companyId)];
  if (query.status) conditions.push(eq(reports.status, query.status));
  if (query.type) conditions.push(eq(reports.reportType, query.type));
  if (query.date_from) conditions.push(gte(reports.createdAt, new Date(`${query.date_from}T00:00:00+09:00`)));
  if (query.date_to)
    conditions.push(
      lt(reports.createdAt, new Date(new Date(`${query.date_to}T00:00:00+09:00`).getTime() + 86_400_000)),
    );
  if (query.overdue === 'true') conditions.push(overdueCondition());
  if (query.q) {
    // A case number (2026-0001, or its start) is digits and hyphens, and no one's name is: each shape gets the
    // one condition it needs, so a name search is a lookup on (company_id, accused_name_index) and never a
    // scan of the company's cases that an OR with the case number would force.
    if (CASE_NUMBER_PREFIX.test(query.q)) {
      const escaped = query.q.replace(/[\\%_]/g, (char) => `\\${char}`);
      conditions.push(ilike(reports.caseNumber, `${escaped}%`));
    } else {
      const indexes = await blindIndexCandidates(database, companyId, 'reports.accused_name', query.q);
      conditions.push(indexes.length ? inArray(reports.accusedNameIndex, indexes) : sql`false`);
    }
  }
  return and(...conditions)!;
}

const listColumns = {
  id: reports.id,
  caseNumber: reports.caseNumber,
  reportType: reports.reportType,
  status: reports.status,
  accusedName: reports.accusedName,
  createdAt: reports.createdAt,
  updatedAt: reports.updatedAt,
  ackDueAt: reports.ackDueAt,
  feedbackDueAt: reports.feedbackDueAt,
  acknowledgedAt: reports.acknowledgedAt,
  feedbackAt: reports.feedbackAt,
  closedAt: reports.closedAt,
};

type ListRow = Pick<typeof reports.$inferSelect, keyof typeof listColumns>;

/** After crypto-erase the list still shows the case (its number, status and dates), not the name. */
async function toListRow(database: Database, row: ListRow): Promise<ManagerListRow> {
  return {
    id: row.id,
    case_number: row.caseNumber,
    report_type: row.reportType,
    status: row.status,
    accused_name: await openTextOr(
      database,
      'reports.accused_name',
      row.id,
      row.accusedName,
      ERASED_PLACEHOLDER,
    ),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ack_due_at: row.ackDueAt.toISOString(),
    feedback_due_at: row.feedbackDueAt.toISOString(),
    is_ack_overdue: isAckOverdue(row),
    is_feedback_overdue: isFeedbackOverdue(row),
  };
}

/** One page of the company's cases: one count query and one page query, whatever the page size. */
export async function listCompanyReports(
  database: Database,
  companyId: string,
  query: ManagerListQuery,
): Promise<Page<ManagerListRow>> {
  const where = await listConditions(database, companyId, query);
  const [[total], rows] = await Promise.all([
    database.db.select({ value: count() }).from(reports).where(where),
    database.db
      .select(listColumns)
      .from(reports)
      .where(where)
      .orderBy(SORTS[query.sort], desc(reports.id))
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
  ]);
  const totalCount = Number(total?.value ?? 0);
  const filters = Object.fromEntries(
    Object.entries({
      status: query.status,
      type: query.type,
      q: query.q,
      date_from: query.date_from,
      date_to: query.date_to,
      overdue: query.overdue,
      sort: query.sort,
    }).filter(([, value]) => value !== undefined) as [string, string][],
  );
  return {
    count: totalCount,
    ...pageLinks('/api/v1/manager/report/', query.page, query.page_size, totalCount, filters),
    results: await Promise.all(rows.map((row) => toListRow(database, row))),
  };
}

/** Every row matching the filters, for the CSV export, in pages so memory stays flat. */
export async function* allCompanyReports(
  database: Database,
  companyId: string,
  query: ManagerListQuery,
): AsyncGenerator<ManagerListRow> {
  const where = await listConditions(database, companyId, query);
  const batch = 1000;
  for (let offset = 0; ; offset += batch) {
    const rows = await database.db
      .select(listColumns)
      .from(reports)
      .where(where)
      .orderBy(SORTS[query.sort], desc(reports.id))
      .limit(batch)
      .offset(offset);
    for (const row of rows) yield toListRow(database, row);
    if (rows.length < batch) return;
  }
}
