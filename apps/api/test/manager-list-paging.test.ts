import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, reports } from '../src/db/schema.ts';
import { EXACT_COUNT_CAP, listQueries, managerListQuery } from '../src/domain/manager/list-reports.ts';
import { createCompany, createManager, reportBody } from './fixtures.ts';
import { createTestApp, registerAndLogin, TEST_DB, type TestClient, type TestContext } from './helpers.ts';
import { seedCompanyReports } from './list-seed.ts';

interface ListPage {
  count: number;
  count_exact: boolean;
  next: string | null;
  previous: string | null;
  results: {
    id: string;
    status: string;
    report_type: string;
    created_at: string;
    is_ack_overdue: boolean;
    is_feedback_overdue: boolean;
  }[];
}

let ctx: TestContext;
let manager: TestClient;
let companyId: string;
/** The list as a manager of the company reads it (the plan must hold with the access condition in it). */
const asManager = (id: string) => ({
  userId: '00000000-0000-4000-8000-000000000000',
  name: '',
  companyId: id,
  role: 'manager' as const,
});

beforeAll(async () => {
  ctx = await createTestApp();
  companyId = await createCompany(ctx, '페이지 주식회사', 'paging.example');
  await createCompany(ctx, '다른 주식회사', 'other.example');
  manager = await createManager(ctx, 'manager@paging.example');
  // Another company's case, which no page, count or cursor of this company may reach.
  const other = await registerAndLogin(ctx, 'reporter@other.example');
  await other.post('/api/v1/report/', reportBody('brief'));
  await seedCompanyReports(ctx.database, companyId, 45);
  // Ties: 30 cases filed in the same microsecond, and updated in the same one, so only the id orders them.
  const tied = sql`id IN (SELECT id FROM reports WHERE company_id = ${companyId} ORDER BY id LIMIT 30)`;
  await ctx.database.db
    .update(reports)
    .set({
      createdAt: sql`'2026-05-01 09:00:00.123456+00'::timestamptz`,
      updatedAt: sql`'2026-05-02 09:00:00.654321+00'::timestamptz`,
    })
    .where(tied);
});
afterAll(() => ctx.close());

const get = async (path: string): Promise<ListPage> => {
  const response = await manager.get(path);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

/** Every page from the first by its `next` link, then back to the first by `previous`. */
async function walk(first: string) {
  const forwards: ListPage[] = [await get(first)];
  while (forwards.at(-1)!.next) forwards.push(await get(forwards.at(-1)!.next!));
  const backwards: ListPage[] = [forwards.at(-1)!];
  while (backwards.at(-1)!.previous) backwards.push(await get(backwards.at(-1)!.previous!));
  return { forwards, backwards: backwards.reverse() };
}

const ids = (pages: ListPage[]) => pages.flatMap((page) => page.results.map((row) => row.id));

describe('keyset paging of the manager list', () => {
  const orders = {
    '-created_at': [desc(reports.createdAt), desc(reports.id)],
    created_at: [asc(reports.createdAt), asc(reports.id)],
    '-updated_at': [desc(reports.updatedAt), desc(reports.id)],
    updated_at: [asc(reports.updatedAt), asc(reports.id)],
    case_number: [asc(reports.caseNumber), asc(reports.id)],
    '-case_number': [desc(reports.caseNumber), desc(reports.id)],
    feedback_due_at: [asc(reports.feedbackDueAt), asc(reports.id)],
  } as const;

  for (const [sort, order] of Object.entries(orders)) {
    it(`walks every case once by next and back by previous, ties included (${sort})`, async () => {
      const expected = (
        await ctx.database.db
          .select({ id: reports.id })
          .from(reports)
          .where(eq(reports.companyId, companyId))
          .orderBy(...order)
      ).map((row) => row.id);
      const { forwards, backwards } = await walk(`/api/v1/manager/report/?sort=${sort}&page_size=7`);
      expect(ids(forwards)).toEqual(expected);
      expect(forwards.map((page) => page.results.length)).toEqual([7, 7, 7, 7, 7, 7, 3]);
      // Back again: the same pages, page by page, and the first page is the plain address.
      expect(backwards.map((page) => page.results.map((row) => row.id))).toEqual(
        forwards.map((page) => page.results.map((row) => row.id)),
      );
      expect(forwards[1]!.previous).not.toContain('before=');
      expect(forwards[1]!.next).toContain('after=');
      expect(forwards[1]!.next).toContain('page=3');
      expect(forwards.every((page) => page.count === 45 && page.count_exact)).toBe(true);
    });
  }

  it('keeps the filters through the cursors and counts only what matches', async () => {
    const received = await ctx.database.db
      .select({ id: reports.id })
      .from(reports)
      .where(and(eq(reports.companyId, companyId), eq(reports.status, 'received')));
    const { forwards } = await walk('/api/v1/manager/report/?status=received&type=anonym&page_size=2');
    const found = forwards.flatMap((page) => page.results);
    expect(found.every((row) => row.status === 'received' && row.report_type === 'anonym')).toBe(true);
    expect(found.length).toBeGreaterThan(2);
    expect(found.length).toBeLessThan(received.length);
    expect(forwards[0]!.count).toBe(found.length);
    expect(forwards.at(-1)!.next).toBeNull();

    const byNumber = await walk('/api/v1/manager/report/?q=2026-00001&page_size=4');
    expect(ids(byNumber.forwards)).toHaveLength(10);
    expect(byNumber.forwards[0]!.next).toContain('q=2026-00001');

    const inMay = await get('/api/v1/manager/report/?date_from=2026-05-01&date_to=2026-05-01&page_size=100');
    expect(inMay.results.map((row) => row.created_at)).toEqual(Array(30).fill('2026-05-01T09:00:00.123Z'));
  });

  // The overdue page is chosen off an index by id and its rows read afterwards (decision 0026): the same cases,
  // in the same order, through every cursor, as the deadlines say. Some acknowledged cases are put past their
  // feedback deadline: the open ones become overdue by it, the answered or closed ones must stay out.
  it('filters overdue cases by either deadline, in order, through every page (overdue=true)', async () => {
    const late = await ctx.database.db
      .select({ id: reports.id, feedbackDueAt: reports.feedbackDueAt })
      .from(reports)
      .where(
        and(
          eq(reports.companyId, companyId),
          sql`${reports.acknowledgedAt} IS NOT NULL AND ${reports.caseNumber} < '2026-000030'`,
        ),
      );
    expect(late.length).toBeGreaterThan(0);
    for (const row of late)
      await ctx.database.db
        .update(reports)
        .set({ feedbackDueAt: sql`now() - interval '1 day'` })
        .where(eq(reports.id, row.id));
    try {
      type Case = typeof reports.$inferSelect;
      const now = Date.now();
      const byAck = (row: Case) => !row.acknowledgedAt && row.ackDueAt.getTime() < now;
      const byFeedback = (row: Case) => !row.feedbackAt && !row.closedAt && row.feedbackDueAt.getTime() < now;
      const pastFeedbackDeadline = (row: Case) => row.feedbackDueAt.getTime() < now;
      const overdueIn = async (order: (typeof orders)[keyof typeof orders]) => {
        const cases = await ctx.database.db
          .select()
          .from(reports)
          .where(eq(reports.companyId, companyId))
          .orderBy(...order);
        return { cases, expected: cases.filter((row) => byAck(row) || byFeedback(row)).map((row) => row.id) };
      };
      const { cases, expected } = await overdueIn(orders['-created_at']);
      expect(cases.some((row) => byAck(row) && !byFeedback(row))).toBe(true);
      expect(cases.some((row) => byFeedback(row) && !byAck(row))).toBe(true);
      expect(cases.some((row) => pastFeedbackDeadline(row) && row.closedAt && !row.feedbackAt)).toBe(true);
      expect(cases.some((row) => pastFeedbackDeadline(row) && row.feedbackAt && !row.closedAt)).toBe(true);
      expect(expected.length).toBeGreaterThan(6);
      expect(expected.length).toBeLessThan(cases.length);

      for (const sort of ['-created_at', 'created_at', '-updated_at', 'feedback_due_at'] as const) {
        const { forwards, backwards } = await walk(
          `/api/v1/manager/report/?overdue=true&sort=${sort}&page_size=3`,
        );
        expect(ids(forwards), sort).toEqual((await overdueIn(orders[sort])).expected);
        expect(backwards.map((page) => page.results.map((row) => row.id))).toEqual(
          forwards.map((page) => page.results.map((row) => row.id)),
        );
        expect(forwards.every((page) => page.count === expected.length && page.count_exact)).toBe(true);
        expect(
          forwards
            .flatMap((page) => page.results)
            .every((row) => row.is_ack_overdue || row.is_feedback_overdue),
        ).toBe(true);
        // A page reached by its number alone (OFFSET) holds the same rows as by its cursor.
        const second = await get(`/api/v1/manager/report/?overdue=true&sort=${sort}&page=2&page_size=3`);
        expect(second.results.map((row) => row.id)).toEqual(forwards[1]!.results.map((row) => row.id));
      }
    } finally {
      for (const row of late)
        await ctx.database.db
          .update(reports)
          .set({ feedbackDueAt: row.feedbackDueAt })
          .where(eq(reports.id, row.id));
    }
  });

  it('reaches a page by its number alone (a typed-in address) as before', async () => {
    const byCursor = await walk('/api/v1/manager/report/?page_size=10');
    const third = await get('/api/v1/manager/report/?page=3&page_size=10');
    expect(third.results.map((row) => row.id)).toEqual(byCursor.forwards[2]!.results.map((row) => row.id));
    const past = await get('/api/v1/manager/report/?page=9&page_size=10');
    expect(past.results).toEqual([]);
    expect(past.previous).toContain('page=8');
  });

  it('refuses a cursor it did not make, and ignores one made for another sort', async () => {
    const bad = await manager.get('/api/v1/manager/report/?after=not-a-cursor');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
    const forged = Buffer.from(JSON.stringify(['-created_at', "x' OR 1=1", crypto.randomUUID()])).toString(
      'base64url',
    );
    expect((await manager.get(`/api/v1/manager/report/?after=${forged}`)).statusCode).toBe(400);
    const first = await get('/api/v1/manager/report/?page_size=5');
    const cursor = new URL(first.next!, 'http://x').searchParams.get('after')!;
    const otherSort = await get(
      `/api/v1/manager/report/?sort=case_number&page=2&page_size=5&after=${cursor}`,
    );
    const byNumber = await get('/api/v1/manager/report/?sort=case_number&page=2&page_size=5');
    expect(otherSort.results).toEqual(byNumber.results);
  });
});

describe('one statement kept per shape of list (decision 0021)', () => {
  // The statement of a shape is built once per process and run with each request's values: a page must never
  // carry the values of the request that built it (another company, another reader, another filter).
  it('runs with each caller’s own company, reader and filter values', async () => {
    const otherManager = await createManager(ctx, 'manager@other.example');
    for (const path of ['/api/v1/manager/report/?status=received', '/api/v1/manager/report/?q=2026-0']) {
      const ours = await get(path);
      const theirs = (await otherManager.get(path)).json() as ListPage;
      expect(ours.results.length).toBeGreaterThan(0);
      const ourIds = new Set(ids([ours]));
      expect(theirs.results.some((row) => ourIds.has(row.id))).toBe(false);
      expect(theirs.count).toBeLessThanOrEqual(1);
    }
    const received = await get('/api/v1/manager/report/?status=received&page_size=100');
    const investigating = await get('/api/v1/manager/report/?status=investigating&page_size=100');
    expect(received.results.every((row) => row.status === 'received')).toBe(true);
    expect(investigating.results.every((row) => row.status === 'investigating')).toBe(true);
    expect(investigating.results.length).toBeGreaterThan(0);
    const byNumber = await get('/api/v1/manager/report/?q=2026-00001&page_size=100');
    const byOtherNumber = await get('/api/v1/manager/report/?q=2026-00002&page_size=100');
    expect(ids([byNumber]).some((id) => ids([byOtherNumber]).includes(id))).toBe(false);
  });
});

describe('the count of a large list', () => {
  beforeAll(async () => {
    await seedCompanyReports(ctx.database, companyId, EXACT_COUNT_CAP + 200, { start: 1000 });
  });

  it('estimates past the cap, says so, and counts exactly when asked', async () => {
    const [{ total }] = (await ctx.database.query<{ total: number }>(
      'SELECT count(*)::int AS total FROM reports WHERE company_id = $1',
      [companyId],
    )) as [{ total: number }];
    const estimated = await get('/api/v1/manager/report/');
    expect(estimated.count_exact).toBe(false);
    expect(estimated.count).toBeGreaterThan(EXACT_COUNT_CAP);
    // The planner's estimate after ANALYZE: near the truth, not the truth.
    expect(Math.abs(estimated.count - total) / total).toBeLessThan(0.2);

    const exact = await get('/api/v1/manager/report/?count=exact');
    expect(exact).toMatchObject({ count: total, count_exact: true });
    expect(exact.next).toContain('count=exact');
    expect((await get(exact.next!)).count_exact).toBe(true);

    // A filter matching fewer than the cap is counted exactly without asking.
    const byNumber = await get('/api/v1/manager/report/?q=2026-0000');
    expect(byNumber.count_exact).toBe(true);
  });

  it('never reports fewer cases than the pages already passed', async () => {
    const lastPage = Math.ceil((EXACT_COUNT_CAP + 245) / 100);
    const last = await get(`/api/v1/manager/report/?page=${lastPage}&page_size=100`);
    expect(last.next).toBeNull();
    expect(last.count_exact).toBe(true);
    expect(last.count).toBe((lastPage - 1) * 100 + last.results.length);
  });

  // Decision 0021: the capped count is most of a page's cost in the database, and past the cap it is replaced
  // by the estimate anyway. Shown by making the filter match fewer than the cap within that minute: a page that
  // counted again would say `count_exact: true`.
  it('reads further pages of a filter past the cap without counting it again for a minute', async () => {
    const filter = '/api/v1/manager/report/?date_from=2025-01-01';
    const first = await get(filter);
    expect(first.count_exact).toBe(false);
    expect(first.count).toBeGreaterThan(EXACT_COUNT_CAP);
    const moved = sql`id IN (SELECT id FROM reports WHERE company_id = ${companyId} ORDER BY id LIMIT 1000)`;
    await ctx.database.db
      .update(reports)
      .set({ createdAt: sql`created_at - interval '10 years'` })
      .where(moved);
    try {
      const again = await get(filter);
      expect(again).toMatchObject({ count: first.count, count_exact: false });
      expect(again.results.length).toBe(20);
      const exact = await get(`${filter}&count=exact`);
      expect(exact.count_exact).toBe(true);
      expect(exact.count).toBeLessThanOrEqual(EXACT_COUNT_CAP);
    } finally {
      await ctx.database.db
        .update(reports)
        .set({ createdAt: sql`created_at + interval '10 years'` })
        .where(moved);
    }
  });
});

/** Every node of an EXPLAIN (FORMAT JSON) plan. */
function planNodes(plan: Record<string, unknown>): Record<string, unknown>[] {
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [plan, ...children.flatMap(planNodes)];
}

/** The planner's plan (EXPLAIN, FORMAT JSON) of a built list statement, with the values it will run with. */
async function planOf(built: {
  toSQL(): { sql: string; params: unknown[] };
}): Promise<Record<string, unknown>> {
  const query = built.toSQL();
  const [row] = await ctx.database.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON) ${query.sql}`,
    query.params,
  );
  const plan = row!['QUERY PLAN'];
  const [{ Plan }] = (typeof plan === 'string' ? JSON.parse(plan) : plan) as [
    { Plan: Record<string, unknown> },
  ];
  return Plan;
}

/**
 * Plans at 20,000 cases are the server's concern: deployments that grow to this size run PostgreSQL, and seeding
 * them into PGlite costs minutes of the suite. Where no PostgreSQL server is given, they run on PGlite instead,
 * so the budget is still checked somewhere (docs/testing.md).
 */
const plansRunHere = TEST_DB === 'postgres' || !process.env.TEST_DATABASE_URL;

describe.runIf(plansRunHere)('query plans at a realistic size', () => {
  let big: string;
  beforeAll(async () => {
    const [company] = await ctx.database.db
      .insert(companies)
      .values({ name: '대규모 주식회사', joinCode: 'JOIN-PLANS' })
      .returning();
    big = company!.id;
    await seedCompanyReports(ctx.database, big, 20_000);
  }, 120_000);

  const filters: Record<string, string>[] = [
    {},
    { status: 'received' },
    { type: 'formal' },
    { date_from: '2026-03-01', date_to: '2026-03-31' },
    { q: '2026-0001' },
    { q: '박행위' },
    { overdue: 'true' },
    ...['created_at', '-updated_at', 'updated_at', 'case_number', '-case_number', 'feedback_due_at'].map(
      (sort) => ({ sort }),
    ),
    { status: 'investigating', sort: 'feedback_due_at' },
  ];

  // A budget that does not depend on timing: the page and its capped count read an index, never the table.
  it('reads every filter and sort, first page and next, off an index', async () => {
    for (const params of filters) {
      const first = await listQueries(ctx.database, asManager(big), managerListQuery.parse(params));
      const rows = await first.page;
      const last = rows[19];
      const next = last
        ? await listQueries(
            ctx.database,
            asManager(big),
            managerListQuery.parse({
              ...params,
              page: '2',
              after: Buffer.from(
                JSON.stringify([managerListQuery.parse(params).sort, last.sortValue, last.id]),
              ).toString('base64url'),
            }),
          )
        : first;
      for (const [name, built] of [
        ['first page', first.page],
        ['next page', next.page],
        ['capped count', first.cappedCount],
      ] as const) {
        const Plan = await planOf(built);
        const scans = planNodes(Plan)
          .filter((node) => node['Relation Name'] === 'reports')
          .map((node) => node['Node Type']);
        expect(scans.length, `${JSON.stringify(params)} ${name}`).toBeGreaterThan(0);
        expect(scans, `${JSON.stringify(params)} ${name}: ${JSON.stringify(Plan)}`).not.toContain('Seq Scan');
        // The overdue page chooses its rows off the index of the cases that can be overdue, deadlines and all
        // (an index-only scan), and reads only those rows by their key: never a row it then throws away.
        if (params.overdue && name !== 'capped count') {
          const reads = planNodes(Plan)
            .filter((node) => node['Relation Name'] === 'reports')
            .map((node) => `${node['Node Type']} ${node['Index Name']}`);
          expect(reads.sort(), `${JSON.stringify(params)} ${name}: ${JSON.stringify(Plan)}`).toEqual([
            'Index Only Scan reports_company_open_created_idx',
            'Index Only Scan reports_company_open_created_idx',
            'Index Scan reports_pkey',
          ]);
        }
        // One status by its feedback deadline is a range of its own index, not a walk of every status's cases.
        if (params.status && params.sort === 'feedback_due_at')
          expect(JSON.stringify(Plan), `${JSON.stringify(params)} ${name}`).toContain(
            'reports_company_status_feedback_due_idx',
          );
      }
    }
  }, 180_000);

  // A typed-in page number skips its OFFSET over index entries alone, then reads only the page's rows by key:
  // never the table rows of the pages before it (decision 0026).
  it('reaches a page by its number alone over index entries, not table rows', async () => {
    for (const sort of ['-created_at', 'created_at', '-updated_at', 'feedback_due_at']) {
      const params = { page: '40', sort };
      const { page } = await listQueries(ctx.database, asManager(big), managerListQuery.parse(params));
      const Plan = await planOf(page);
      const reads = planNodes(Plan)
        .filter((node) => node['Relation Name'] === 'reports')
        .map((node) => `${node['Node Type']} ${node['Index Name']}`);
      const index = sort.endsWith('updated_at')
        ? 'reports_company_updated_idx'
        : sort === 'feedback_due_at'
          ? 'reports_company_feedback_due_idx'
          : 'reports_company_created_idx';
      expect(reads, `${sort}: ${JSON.stringify(Plan)}`).toContain(`Index Only Scan ${index}`);
      expect(reads, `${sort}: ${JSON.stringify(Plan)}`).toContain('Index Scan reports_pkey');
      expect(
        reads.filter((read) => read.startsWith('Index Scan ')),
        sort,
      ).toEqual(['Index Scan reports_pkey']);
      // The same rows as the whole rows read in order and skipped, as the page was read before.
      const column = {
        created_at: reports.createdAt,
        updated_at: reports.updatedAt,
        feedback_due_at: reports.feedbackDueAt,
      }[sort.replace('-', '') as 'created_at'];
      const direction = sort.startsWith('-') ? desc : asc;
      const expected = await ctx.database.db
        .select({ id: reports.id })
        .from(reports)
        .where(eq(reports.companyId, big))
        .orderBy(direction(column), direction(reports.id))
        .limit(20)
        .offset(39 * 20);
      expect(
        (await page).slice(0, 20).map((row) => row.id),
        sort,
      ).toEqual(expected.map((row) => row.id));
    }
  }, 180_000);
});
