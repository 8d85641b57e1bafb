import { caseReferencePrefix } from '@ansim/shared/case-reference';
import { REPORT_STATUSES, REPORTER_TYPES } from '@ansim/shared/constants';
import type { ManagerListPage, ManagerListRow } from '@ansim/shared/contract/manager';
import {
  and,
  asc,
  count,
  desc,
  eq,
  fillPlaceholders,
  gte,
  inArray,
  isNull,
  like,
  lt,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { type BoundStatement, bindStatement, prepareUnnamed } from '../../db/kept-statements.ts';
import { reportAssignees, reports } from '../../db/schema.ts';
import { blindIndexCandidates, ERASED_PLACEHOLDER, openTextOr } from '../../encryption/codec.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { caseAccessCondition, type HandlerContext, seesEveryCase } from './case-scope.ts';
import { isAckOverdue, isFeedbackOverdue } from './case-view.ts';

/**
 * Each sort is one column and the id as its tie-breaker, both in the same direction, so a page is a range of one
 * index (company_id, column, id) read forwards or backwards, and the next page starts after the last row's
 * (column, id): keyset pagination, whose cost does not grow with the page number.
 */
const SORTS = {
  created_at: { column: reports.createdAt, descending: false },
  '-created_at': { column: reports.createdAt, descending: true },
  updated_at: { column: reports.updatedAt, descending: false },
  '-updated_at': { column: reports.updatedAt, descending: true },
  case_number: { column: reports.caseNumber, descending: false },
  '-case_number': { column: reports.caseNumber, descending: true },
  feedback_due_at: { column: reports.feedbackDueAt, descending: false },
} as const;
type SortKey = keyof typeof SORTS;

/**
 * Where a page starts: the sort it was made for, and the (sort value, id) of the row it continues from. The
 * value of a timestamp travels as text with its microseconds, which a JavaScript Date would cut off.
 */
export interface ListCursor {
  sort: SortKey;
  value: string;
  id: string;
}

const cursorShape = z.tuple([
  z.enum(Object.keys(SORTS) as [SortKey, ...SortKey[]]),
  z.string().max(100),
  z.uuid(),
]);

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.value, cursor.id])).toString('base64url');
}

const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const cursorParam = z
  .string()
  .max(300)
  .transform((text, context): ListCursor => {
    try {
      const [sort, value, id] = cursorShape.parse(
        JSON.parse(Buffer.from(text, 'base64url').toString('utf8')),
      );
      if (SORTS[sort].column !== reports.caseNumber && !TIMESTAMP_TEXT.test(value)) throw new Error('value');
      return { sort, value, id };
    } catch {
      context.addIssue({
        code: 'custom',
        message: '페이지 위치가 올바르지 않습니다. 목록을 처음부터 다시 열어주세요.',
      });
      return z.NEVER;
    }
  });

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
  sort: z.enum(Object.keys(SORTS) as [SortKey, ...SortKey[]]).default('-created_at'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  /** The page continues after this row (the `next` link), or ends before it (`previous`); page is its number. */
  after: cursorParam.optional(),
  before: cursorParam.optional(),
  /** `exact` counts every matching case; otherwise the count may be an estimate (`count_exact: false`). */
  count: z.enum(['exact', 'estimate']).default('estimate'),
});
export type ManagerListQuery = z.infer<typeof managerListQuery>;

export type { ManagerListRow };

/** Open cases past a deadline: not acknowledged in time, or no feedback to the reporter in time. */
export function overdueCondition(now: Date | Placeholder = new Date()): SQL {
  return or(
    and(isNull(reports.acknowledgedAt), lt(reports.ackDueAt, now)),
    and(isNull(reports.feedbackAt), isNull(reports.closedAt), lt(reports.feedbackDueAt, now)),
  )!;
}

/**
 * What a list statement looks like apart from its values: which filters are present, the sort, whether the page
 * starts at a cursor (and in which direction it is read), the count asked for, and whether the handler sees every
 * case. Every statement of one shape is the same SQL text with other values, so it is built once (`listStatements`).
 */
interface ListShape {
  seesEveryCase: boolean;
  status: boolean;
  type: boolean;
  dateFrom: boolean;
  dateTo: boolean;
  overdue: boolean;
  /** A case-number prefix, names through their blind indexes, or a name that no key can index (matches none). */
  search: 'none' | 'case_number' | 'name' | 'nothing';
  sort: SortKey;
  cursor: 'none' | 'after' | 'before';
  /** A page past the first reached by its number alone (a typed-in address): read with OFFSET. */
  jump: boolean;
  exactCount: boolean;
  counting: boolean;
}

/** The values a list statement takes, by placeholder name. */
interface ListValues {
  companyId: string;
  userId: string;
  status?: string;
  type?: string;
  dateFrom?: Date;
  dateTo?: Date;
  now?: Date;
  caseNumberPattern?: string;
  nameIndexes?: string[];
  cursorValue?: string;
  cursorId?: string;
  limit: number;
  offset: number;
}

const value = (name: keyof ListValues) => sql.placeholder(name);

/** The list's WHERE for a shape, its values left as placeholders; the access condition comes first. */
function listWhere(shape: ListShape): SQL {
  // Only the cases this handler may see (company, assignment, no conflict of interest), on every query.
  const conditions: SQL[] = [
    eq(reports.companyId, value('companyId')),
    caseAccessCondition({
      role: shape.seesEveryCase ? 'manager' : 'investigator',
      userId: value('userId'),
      companyId: value('companyId'),
    }),
  ];
  if (shape.status) conditions.push(eq(reports.status, value('status')));
  if (shape.type) conditions.push(eq(reports.reportType, value('type')));
  if (shape.dateFrom) conditions.push(gte(reports.createdAt, value('dateFrom')));
  if (shape.dateTo) conditions.push(lt(reports.createdAt, value('dateTo')));
  if (shape.overdue) conditions.push(overdueCondition(value('now')));
  // A case reference (2026-K7M3QX, or its start) begins with the year's digits, and no one's name does: each
  // shape gets the one condition it needs, so a name search is a lookup on (company_id, accused_name_index) and
  // never a scan of the company's cases that an OR with the case number would force. The typed prefix is already
  // in the stored form (upper case, `caseReferencePrefix`), so LIKE is enough, and a prefix LIKE is a range of
  // the text_pattern_ops index (reports_company_case_number_pattern_idx) whatever the database's collation.
  if (shape.search === 'case_number') conditions.push(like(reports.caseNumber, value('caseNumberPattern')));
  if (shape.search === 'name')
    conditions.push(sql`${reports.accusedNameIndex} = ANY(${value('nameIndexes')}::text[])`);
  if (shape.search === 'nothing') conditions.push(sql`false`);
  return and(...conditions)!;
}

/** The shape and values of the list the handler asks for (the blind indexes of a searched name looked up). */
async function listRequest(
  database: Database,
  handler: HandlerContext,
  query: ManagerListQuery,
  counting: boolean,
): Promise<{ shape: ListShape; values: ListValues; cursor?: ListCursor; forwards: boolean }> {
  // A cursor made for another sort (a stale address) says nothing about this order: the page number decides.
  const cursor = [query.after, query.before].find((candidate) => candidate?.sort === query.sort);
  const forwards = !cursor || cursor !== query.before;
  const values: ListValues = {
    companyId: handler.companyId,
    userId: handler.userId,
    status: query.status,
    type: query.type,
    limit: query.page_size + 1,
    offset: cursor ? 0 : (query.page - 1) * query.page_size,
    cursorValue: cursor?.value,
    cursorId: cursor?.id,
  };
  if (query.date_from) values.dateFrom = new Date(`${query.date_from}T00:00:00+09:00`);
  if (query.date_to)
    values.dateTo = new Date(new Date(`${query.date_to}T00:00:00+09:00`).getTime() + 86_400_000);
  if (query.overdue === 'true') values.now = new Date();
  let search: ListShape['search'] = 'none';
  // `q` is the start of a case reference (typed in any case), or the accused person's whole name through its blind
  // index (the name itself is sealed): spacing, width and case aside, but not a part of the name.
  const referencePrefix = query.q ? caseReferencePrefix(query.q) : null;
  if (referencePrefix) {
    search = 'case_number';
    values.caseNumberPattern = `${referencePrefix}%`;
  } else if (query.q) {
    const indexes = await blindIndexCandidates(database, handler.companyId, 'reports.accused_name', query.q);
    search = indexes.length ? 'name' : 'nothing';
    values.nameIndexes = indexes;
  }
  const shape: ListShape = {
    seesEveryCase: seesEveryCase(handler),
    status: Boolean(query.status),
    type: Boolean(query.type),
    dateFrom: Boolean(query.date_from),
    dateTo: Boolean(query.date_to),
    overdue: query.overdue === 'true',
    search,
    sort: query.sort,
    cursor: !cursor ? 'none' : forwards ? 'after' : 'before',
    jump: !cursor && query.page > 1,
    exactCount: query.count === 'exact',
    counting,
  };
  return { shape, values, cursor, forwards };
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

/** Whether each case is assigned to the handler reading the list: one EXISTS on the assignees' key. */
const isAssignedToReader = sql<boolean>`exists (select 1 from ${reportAssignees} where ${reportAssignees.reportId} = ${reports.id} and ${reportAssignees.userId} = ${value('userId')})`;

type ListRow = Pick<typeof reports.$inferSelect, keyof typeof listColumns> & { isAssignedToMe: boolean };

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
    is_assigned_to_me: Boolean(row.isAssignedToMe),
  };
}

/** A page whose links say whether the count is exact (`count=exact`, or small enough to count cheaply). */
export type { ManagerListPage };

/**
 * Counted exactly up to this many matches, which stays cheap (an index range of at most this many rows); past it
 * the count is the planner's estimate, unless the manager asks for the exact figure.
 */
export const EXACT_COUNT_CAP = 1000;

/** The sort value as the cursor carries it: timestamps as UTC text with microseconds. */
function sortValueOf(sort: SortKey): SQL<string> {
  const { column } = SORTS[sort];
  return column === reports.caseNumber
    ? sql<string>`${column}`
    : sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** Rows strictly past the cursor in the direction read: `(column, id) < (value, id)` or `>`. */
function pastCursor(sort: SortKey, forwards: boolean): SQL {
  const { column, descending } = SORTS[sort];
  const cursorValue =
    column === reports.caseNumber
      ? sql`${value('cursorValue')}::text`
      : sql`${value('cursorValue')}::timestamptz`;
  const operator = descending === forwards ? sql.raw('<') : sql.raw('>');
  return sql`(${column}, ${reports.id}) ${operator} (${cursorValue}, ${value('cursorId')}::uuid)`;
}

/**
 * The statements of one shape of list, built with placeholders for its values. Building a statement of this
 * size costs more CPU than the database spends running it (decision 0021), so each shape is built once per
 * process and kept (`prepareUnnamed`).
 */
function buildListStatements(database: Database, shape: ListShape) {
  const where = listWhere(shape);
  const forwards = shape.cursor !== 'before';
  const { column, descending } = SORTS[shape.sort];
  const ascending = descending !== forwards;
  const order = ascending ? [asc(column), asc(reports.id)] : [desc(column), desc(reports.id)];
  const pageWhere = shape.cursor === 'none' ? where : and(where, pastCursor(shape.sort, forwards))!;
  // In the page's order, so the planner reads an index in that order (at most CAP + 1 entries of it) and never
  // a scan of the table, whose rows of other companies and other filters would make it unbounded. Without the
  // id: which tied row is the 1,001st does not matter, and an index without it can then answer alone.
  // The overdue filter is counted in the order of the index that holds its deadlines, whatever the sort: an
  // index-only scan, where the sort's index would fetch every row it passed (decision 0026).
  const countOrder = shape.overdue ? desc(reports.createdAt) : descending ? desc(column) : asc(column);
  const capped = database.db
    .select({ one: sql`1` })
    .from(reports)
    .where(where)
    .orderBy(countOrder)
    .limit(EXACT_COUNT_CAP + 1)
    .as('capped');
  const cappedCount = database.db.select({ value: count() }).from(capped);
  const exactCount = database.db.select({ value: count() }).from(reports).where(where);
  const matching = shape.exactCount ? exactCount : cappedCount;
  // The count rides on every row of the page as an uncorrelated subquery (run once): one statement, one round
  // trip, one connection for the page and its count.
  const columns = (counting: boolean) => ({
    ...listColumns,
    isAssignedToMe: isAssignedToReader,
    sortValue: sortValueOf(shape.sort),
    matching: (counting ? sql<number>`(${matching})` : sql<number>`NULL`).mapWith(Number),
  });
  const pageSelect = (selection: ReturnType<typeof columns> | { id: typeof reports.id }) =>
    database.db
      .select(selection)
      .from(reports)
      .where(pageWhere)
      .orderBy(...order)
      .limit(value('limit'))
      .offset(value('offset'));
  // The overdue filter is on columns a plain index scan can only check in the table row, so a page read straight
  // off an index fetched every row it passed, most of them not yet overdue (2,831 buffers for 21 rows at 100,000
  // cases). Its page is chosen first by id alone, which `reports_company_open_created_idx` answers with the
  // deadlines in the index (an index-only scan), and only the rows chosen are then read (decision 0026). The
  // inner `reports` is the subquery's own: its conditions are the whole filter and the access condition.
  // A page reached by its number alone skips every row before it the same way: OFFSET over the sort's index
  // (company_id, column, id) walks index entries only, where reading whole rows fetched each skipped row's table
  // page (10,235 buffers for page 500 at 100,000 cases).
  const pageOf = (counting: boolean) =>
    shape.overdue || shape.jump
      ? database.db
          .select(columns(counting))
          .from(reports)
          .where(inArray(reports.id, pageSelect({ id: reports.id })))
          .orderBy(...order)
      : pageSelect(columns(counting));
  const page = prepareUnnamed(pageOf(shape.counting));
  return {
    page,
    /** The same page without its count, for a filter already known to match more than the cap. */
    uncountedPage: shape.counting ? prepareUnnamed(pageOf(false)) : page,
    matching: prepareUnnamed(matching),
    cappedCount: prepareUnnamed(cappedCount),
    exactCount: prepareUnnamed(exactCount),
    /** What the planner is asked to estimate past the cap: the filter alone. */
    filter: database.db.select({ one: sql`1` }).from(reports).where(where).toSQL(),
  };
}

type ListStatements = ReturnType<typeof buildListStatements>;

/** Shapes kept per process: every combination the UI can ask for is a few hundred; the oldest go first. */
const SHAPES_KEPT = 500;
const builtStatements = new WeakMap<Database, Map<string, ListStatements>>();

/** The statements of a shape, built on its first use in this process (see `buildListStatements`). */
export function listStatementsOf(database: Database, shape: ListShape): ListStatements {
  const key = JSON.stringify(shape);
  let cache = builtStatements.get(database);
  if (!cache) {
    cache = new Map();
    builtStatements.set(database, cache);
  }
  let statements = cache.get(key);
  if (!statements) {
    statements = buildListStatements(database, shape);
    if (cache.size >= SHAPES_KEPT) cache.delete(cache.keys().next().value!);
    cache.set(key, statements);
  }
  return statements;
}

/**
 * The queries of one list page, ready to run, so tests and the bench can EXPLAIN exactly what the route runs.
 * A page after a cursor (or before it, read backwards and reversed) is a keyset range; a page reached by its
 * number alone (a typed-in address) falls back to OFFSET. One more row than the page is read, to know whether a
 * next page exists without counting.
 */
export async function listQueries(
  database: Database,
  handler: HandlerContext,
  query: ManagerListQuery,
  counting = true,
) {
  const { shape, values, cursor, forwards } = await listRequest(database, handler, query, counting);
  const statements = listStatementsOf(database, shape);
  const bound = values as unknown as Record<string, unknown>;
  type Count = { value: number }[];
  type PageRow = ListRow & { sortValue: string; matching: number | null };
  // The filter as the estimate cache knows it: the values that choose the rows, not the clock of `overdue`
  // (which would make every request a new filter) nor the page's position.
  const { now: _now, limit: _limit, offset: _offset, cursorValue: _value, cursorId: _id, ...chosen } = values;
  const filterShape = {
    ...shape,
    sort: undefined,
    cursor: undefined,
    jump: undefined,
    exactCount: undefined,
    counting: undefined,
  };
  return {
    cursor,
    forwards,
    page: bindStatement(statements.page as never, bound) as BoundStatement<PageRow[]>,
    /** The same page without its count, for a filter already known to match more than the cap. */
    uncountedPage: bindStatement(statements.uncountedPage as never, bound) as BoundStatement<PageRow[]>,
    matching: bindStatement(statements.matching as never, bound) as BoundStatement<Count>,
    cappedCount: bindStatement(statements.cappedCount as never, bound) as BoundStatement<Count>,
    exactCount: bindStatement(statements.exactCount as never, bound) as BoundStatement<Count>,
    filter: {
      key: JSON.stringify([filterShape, chosen]),
      sql: statements.filter.sql,
      params: fillPlaceholders(statements.filter.params, bound),
    },
  };
}

const ESTIMATE_TTL_MS = 60_000;
const ESTIMATES_KEPT = 1000;
/**
 * Recent estimates by filter, each taken when the filter matched more than the cap: paging through one list
 * asks the planner once a minute, not on every page, and for that minute the pages skip the capped count.
 */
const estimates = new WeakMap<Database, Map<string, { value: number; at: number }>>();

type ListFilter = { key: string; sql: string; params: unknown[] };

function estimatesOf(database: Database): Map<string, { value: number; at: number }> {
  let cache = estimates.get(database);
  if (!cache) {
    cache = new Map();
    estimates.set(database, cache);
  }
  return cache;
}

/** The estimate taken for this filter less than a minute ago, when it matched more than the cap; or none. */
function rememberedEstimate(database: Database, filter: ListFilter, now = Date.now()): number | undefined {
  const known = estimatesOf(database).get(filter.key);
  return known && now - known.at < ESTIMATE_TTL_MS ? known.value : undefined;
}

/**
 * The planner's estimate of the rows matching a filter: what the statistics say, at the cost of planning (no
 * execution), remembered for a minute per filter in this process.
 */
async function estimatedCount(database: Database, filter: ListFilter, now = Date.now()): Promise<number> {
  const remembered = rememberedEstimate(database, filter, now);
  if (remembered !== undefined) return remembered;
  const [row] = await database.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON) ${filter.sql}`,
    filter.params,
  );
  const plan = row?.['QUERY PLAN'];
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as [{ Plan: { 'Plan Rows': number } }];
  const value = Math.round(parsed[0]?.Plan['Plan Rows'] ?? 0);
  // A Map keeps insertion order: the oldest entry goes first once the cache is full.
  const cache = estimatesOf(database);
  cache.delete(filter.key);
  if (cache.size >= ESTIMATES_KEPT) cache.delete(cache.keys().next().value!);
  cache.set(filter.key, { value, at: now });
  return value;
}

/**
 * One page of the company's cases, as the handler reads it, and the record of that read (`report.list` in the
 * audit log, folded with the same handler's recent reads of the list). The record is written beside the read,
 * not after it, and the page is returned only once it is stored: if the write fails, the caller gets the error
 * and no page (docs/decisions/0019).
 */
export async function listCompanyReports(
  database: Database,
  handler: HandlerContext,
  query: ManagerListQuery,
): Promise<ManagerListPage> {
  const [page] = await Promise.all([
    readCompanyReports(database, handler, query),
    recordAudit(database.db, {
      companyId: handler.companyId,
      actorId: handler.userId,
      action: 'report.list',
      targetType: 'company',
      targetId: handler.companyId,
    }),
  ]);
  return page;
}

/**
 * One page of the company's cases, read off an index, without recording the read (`listCompanyReports` does).
 * The count is exact when asked (`count=exact`) or when at most EXACT_COUNT_CAP cases match; otherwise it is the
 * planner's estimate, kept consistent with the page (never fewer than the rows already passed plus this page),
 * and `count_exact` says so.
 */
async function readCompanyReports(
  database: Database,
  handler: HandlerContext,
  query: ManagerListQuery,
): Promise<ManagerListPage> {
  const queries = await listQueries(database, handler, query);
  // A filter that matched more than the cap a moment ago is read without counting again (most of the page's
  // cost in the database): its count is the planner's estimate either way (docs/decisions/0021).
  const remembered = query.count === 'exact' ? undefined : rememberedEstimate(database, queries.filter);
  const read = await (remembered === undefined ? queries.page : queries.uncountedPage);
  // An empty page carries no count: none match, or (past the end, or past a cursor) it is counted on its own.
  const counted =
    remembered !== undefined && read.length > 0
      ? EXACT_COUNT_CAP + 1
      : (read[0]?.matching ??
        (!queries.cursor && query.page === 1 ? 0 : Number((await queries.matching)[0]?.value ?? 0)));
  const hasMore = read.length > query.page_size;
  const rows = read.slice(0, query.page_size);
  if (!queries.forwards) rows.reverse();
  // Read backwards, the extra row is the one before this page; read forwards, the one after it.
  const hasNext = queries.forwards ? hasMore : true;
  const hasPrevious = queries.forwards ? query.page > 1 : hasMore;

  let total = counted;
  let isExact = query.count === 'exact' || total <= EXACT_COUNT_CAP;
  if (!isExact) {
    const passed = (query.page - 1) * query.page_size + rows.length;
    if (!hasNext) {
      // The last page: the rows before it and on it are all there are, exactly so if it was reached by its
      // number (a cursor's page number is the client's count of the pages it stepped through).
      total = passed;
      isExact = !queries.cursor;
    } else {
      const estimate = await estimatedCount(database, queries.filter);
      total = Math.max(estimate, total, passed + 1);
    }
  }

  const filters = Object.fromEntries(
    Object.entries({
      status: query.status,
      type: query.type,
      q: query.q,
      date_from: query.date_from,
      date_to: query.date_to,
      overdue: query.overdue,
      sort: query.sort,
      count: query.count === 'exact' ? 'exact' : undefined,
    }).filter(([, value]) => value !== undefined) as [string, string][],
  );
  const link = (page: number, cursor?: { after?: ListRowWithCursor; before?: ListRowWithCursor }) => {
    const params = new URLSearchParams({
      ...filters,
      page: String(page),
      page_size: String(query.page_size),
    });
    const toCursor = (row: ListRowWithCursor) =>
      encodeCursor({ sort: query.sort, value: row.sortValue, id: row.id });
    if (cursor?.after) params.set('after', toCursor(cursor.after));
    if (cursor?.before) params.set('before', toCursor(cursor.before));
    return `/api/v1/manager/report/?${params.toString()}`;
  };
  const first = rows[0];
  const last = rows.at(-1);
  return {
    count: total,
    count_exact: isExact,
    next: hasNext && last ? link(query.page + 1, { after: last }) : null,
    // The first page has one address, without a cursor; an empty page (past the end) steps back by number.
    previous:
      hasPrevious && query.page > 1
        ? query.page === 2 || !first
          ? link(query.page - 1)
          : link(query.page - 1, { before: first })
        : null,
    results: await Promise.all(rows.map((row) => toListRow(database, row))),
  };
}

type ListRowWithCursor = ListRow & { sortValue: string };

/** Every row matching the filters, for the CSV export, a keyset batch at a time so memory and cost stay flat. */
export async function* allCompanyReports(
  database: Database,
  handler: HandlerContext,
  query: ManagerListQuery,
): AsyncGenerator<ManagerListRow> {
  const batch = 1000;
  let after: ListCursor | undefined;
  for (;;) {
    const { page } = await listQueries(
      database,
      handler,
      { ...query, page: 1, page_size: batch, after, before: undefined },
      false,
    );
    const rows = await page;
    for (const row of rows.slice(0, batch)) yield toListRow(database, row);
    const last = rows[batch - 1];
    if (rows.length <= batch || !last) return;
    after = { sort: query.sort, value: last.sortValue, id: last.id };
  }
}
