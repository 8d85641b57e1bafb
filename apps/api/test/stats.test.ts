import { randomUUID } from 'node:crypto';
import { REPORT_STATUSES } from '@ansim/shared/constants';
import { CASE_ACTIONS, CASE_FINDINGS } from '@ansim/shared/outcomes';
import { RELATIONSHIP_OPTIONS_KO } from '@ansim/shared/report-form';
import { reportStatsResponse } from '@ansim/shared/stats';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseExclusions, reports, users } from '../src/db/schema.ts';
import { eraseCompanyKeys } from '../src/domain/companies/company-keys.ts';
import {
  companyStats,
  histogramMedian,
  rebuildStats,
  STATS_SQL,
  statsParams,
  statsRange,
} from '../src/domain/manager/stats.ts';
import { statsDimensions } from '../src/domain/reports/stat-dimensions.ts';
import { createCompany, createManager, reportBody } from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestClient, type TestContext } from './helpers.ts';

let ctx: TestContext;
let companyA: string;
let manager: TestClient;
let reporter: TestClient;

beforeAll(async () => {
  ctx = await createTestApp();
  companyA = await createCompany(ctx, '통계 주식회사', 'stats.example');
  manager = await createManager(ctx, 'manager@stats.example');
  reporter = await registerAndLogin(ctx, 'reporter@stats.example', { name: '김신고' });
});
afterAll(() => ctx.close());

type Snapshot = { counts: string[]; durations: string[]; waiting: string[] };

/** Both summary tables, as sorted lines, for comparing incremental with rebuilt. */
async function snapshot(companyId?: string): Promise<Snapshot> {
  const where = companyId ? 'WHERE company_id = $1' : '';
  const params = companyId ? [companyId] : [];
  const counts = await ctx.database.query<{ line: string }>(
    `SELECT concat_ws('|', company_id, month, dimension, value, count) AS line FROM report_stat_counts ${where} ORDER BY 1`,
    params,
  );
  const durations = await ctx.database.query<{ line: string }>(
    `SELECT concat_ws('|', company_id, month, measure, days, count) AS line FROM report_stat_durations ${where} ORDER BY 1`,
    params,
  );
  const waiting = await ctx.database.query<{ line: string }>(
    `SELECT concat_ws('|', company_id, kind, due_day, count) AS line FROM report_stat_waiting ${where} ORDER BY 1`,
    params,
  );
  return {
    counts: counts.map((row) => row.line),
    durations: durations.map((row) => row.line),
    waiting: waiting.map((row) => row.line),
  };
}

describe('statistics dimensions', () => {
  it('keeps the department tidy and the relationship to the listed answers', () => {
    expect(statsDimensions({ perpetrator_department: '  영업   1팀 ', relationship: '상급자' })).toEqual({
      accusedDepartment: '영업 1팀',
      relationship: '상급자',
    });
    expect(statsDimensions({ perpetrator_department: '', relationship: '협력업체 직원' })).toEqual({
      accusedDepartment: '',
      relationship: '기타',
    });
    expect(
      statsDimensions({ perpetrator_department: 'x'.repeat(150), relationship: '' }).accusedDepartment,
    ).toHaveLength(100);
  });

  it('takes the median of a histogram of days', () => {
    expect(histogramMedian(new Map())).toBeNull();
    expect(histogramMedian(new Map([[3, 1]]))).toBe(3);
    expect(
      histogramMedian(
        new Map([
          [1, 1],
          [4, 1],
        ]),
      ),
    ).toBe(2.5);
    expect(
      histogramMedian(
        new Map([
          [0, 2],
          [10, 1],
        ]),
      ),
    ).toBe(0);
  });

  it('defaults to the 12 months up to the current one in Korea and refuses a reversed range', () => {
    // 2026-12-31 20:00 UTC is already January in Seoul.
    const now = Date.parse('2026-12-31T20:00:00Z');
    expect(statsRange({}, now)).toEqual({ from: '2026-02', to: '2027-01' });
    expect(statsRange({ date_from: '2025-03' }, now)).toEqual({ from: '2025-03', to: '2026-02' });
    expect(() => statsRange({ date_from: '2026-05', date_to: '2026-04' }, now)).toThrow();
    expect(() => statsRange({ date_from: '2000-01', date_to: '2026-04' }, now)).toThrow();
  });
});

describe('GET /api/v1/manager/stats/reports', () => {
  it('counts submissions, status changes and the dimensions of the form, and matches a rebuild', async () => {
    const first = (
      await reporter.post(
        '/api/v1/report/',
        reportBody('formal', { perpetrator_department: '영업팀', relationship: '상급자' }),
      )
    ).json().id as string;
    await reporter.post(
      '/api/v1/report/',
      reportBody('brief', { perpetrator_department: '영업팀', relationship: '동료', idempotency_key: 'b' }),
    );
    await reporter.post(
      '/api/v1/report/',
      reportBody('brief', {
        perpetrator_department: '개발팀',
        relationship: '거래처 직원',
        idempotency_key: 'c',
      }),
    );
    const changed = await manager.request({
      method: 'PATCH',
      url: `/api/v1/manager/report/${first}`,
      json: { status: 'investigating' },
    });
    expect(changed.statusCode).toBe(200);

    const response = await manager.get('/api/v1/manager/stats/reports');
    expect(response.statusCode).toBe(200);
    const stats = reportStatsResponse.parse(response.json());
    expect(stats.total).toBe(3);
    expect(stats.by_status).toMatchObject({ received: 2, investigating: 1 });
    expect(stats.by_type).toMatchObject({ formal: 1, brief: 2 });
    expect(stats.by_department).toEqual([
      { value: '영업팀', count: 2 },
      { value: '개발팀', count: 1 },
    ]);
    expect(stats.by_relationship).toEqual(
      expect.arrayContaining([
        { value: '상급자', count: 1 },
        { value: '동료', count: 1 },
        { value: '기타', count: 1 },
      ]),
    );
    expect(stats.by_finding.none).toBe(3);
    expect(stats.by_month).toHaveLength(12);
    expect(stats.by_month.at(-1)!.count).toBe(3);
    expect(stats.median_days_to_acknowledge).toBe(0);
    expect(stats.overdue).toEqual({ ack: 0, feedback: 0, total: 0 });

    const incremental = await snapshot(companyA);
    await rebuildStats(ctx.database, companyA);
    expect(await snapshot(companyA)).toEqual(incremental);
  });

  it('takes a month range and refuses a bad one', async () => {
    const past = await manager.get('/api/v1/manager/stats/reports?date_from=2020-01&date_to=2020-03');
    expect(past.statusCode).toBe(200);
    expect(past.json()).toMatchObject({ total: 0, date_from: '2020-01', date_to: '2020-03' });
    expect(past.json().by_month.map((m: { month: string }) => m.month)).toEqual([
      '2020-01',
      '2020-02',
      '2020-03',
    ]);
    for (const query of ['date_from=2020-13', 'date_from=2021-01&date_to=2020-01', 'date_to=x'])
      expect((await manager.get(`/api/v1/manager/stats/reports?${query}`)).statusCode).toBe(400);
  });

  it('counts overdue cases, and leaves out the cases a viewer is excluded from', async () => {
    const [company] = await ctx.database.db
      .select({ id: reports.id })
      .from(reports)
      .where(eq(reports.companyId, companyA))
      .limit(1);
    await ctx.database.db
      .update(reports)
      .set({ ackDueAt: new Date(Date.now() - 1000), feedbackDueAt: new Date(Date.now() - 1000) })
      .where(eq(reports.companyId, companyA));
    // One of them overdue since three days: counted from the histogram, the others from today's index range.
    await ctx.database.db
      .update(reports)
      .set({
        ackDueAt: new Date(Date.now() - 3 * 86400e3),
        feedbackDueAt: new Date(Date.now() - 3 * 86400e3),
      })
      .where(eq(reports.id, company!.id));
    const before = (await manager.get('/api/v1/manager/stats/reports')).json();
    expect(before.overdue).toEqual({ ack: 2, feedback: 3, total: 3 });

    const [viewer] = await ctx.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'manager@stats.example'));
    await ctx.database.db
      .insert(caseExclusions)
      .values({ reportId: company!.id, userId: viewer!.id, reason: 'manual' });
    const after = reportStatsResponse.parse((await manager.get('/api/v1/manager/stats/reports')).json());
    expect(after.total).toBe(before.total - 1);
    expect(after.overdue.total).toBe(2);
    const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
    expect(sum(after.by_status)).toBe(after.total);
    await ctx.database.db.delete(caseExclusions).where(eq(caseExclusions.userId, viewer!.id));
  });

  it('forgets the departments when the company key is erased', async () => {
    const other = await createCompany(ctx, '삭제 주식회사', 'erase.example');
    await insertReport(other, { accused_department: '비밀팀' });
    expect((await snapshot(other)).counts.some((line) => line.includes('비밀팀'))).toBe(true);
    await eraseCompanyKeys(ctx.database, other);
    const after = await snapshot(other);
    expect(after.counts.some((line) => line.includes('비밀팀'))).toBe(false);
    await rebuildStats(ctx.database, other);
    expect(await snapshot(other)).toEqual(after);
  });
  it('counts the findings and actions recorded through the API, and follows a new outcome after reopening', async () => {
    const companyId = await createCompany(ctx, '결과 주식회사', 'outcome.example');
    const handler = await createManager(ctx, 'manager@outcome.example');
    const filer = await registerAndLogin(ctx, 'reporter@outcome.example', { name: '이신고' });
    const ids: string[] = [];
    for (const key of ['o1', 'o2', 'o3', 'o4']) {
      const created = await filer.post('/api/v1/report/', reportBody('brief', { idempotency_key: key }));
      expect(created.statusCode).toBe(201);
      ids.push(created.json().id);
    }
    const patch = async (id: string, json: Record<string, unknown>) => {
      const response = await handler.request({ method: 'PATCH', url: `/api/v1/manager/report/${id}`, json });
      expect(response.statusCode, response.body).toBe(200);
    };
    const outcome = (finding: string, actions: string[]) => ({ finding, actions, summary: '조사 결과' });
    for (const id of ids.slice(0, 3)) await patch(id, { status: 'investigating' });
    await patch(ids[0]!, {
      status: 'action_taken',
      outcome: outcome('substantiated', ['warning', 'training']),
    });
    await patch(ids[1]!, {
      status: 'closed',
      outcome: outcome('partially_substantiated', ['reprimand', 'training']),
    });
    await patch(ids[2]!, { status: 'closed', outcome: outcome('not_substantiated', ['none']) });
    // ids[3] has no outcome yet.
    const zero = Object.fromEntries(CASE_ACTIONS.map((action) => [action, 0]));
    const read = async () => {
      const response = await handler.get('/api/v1/manager/stats/reports');
      expect(response.statusCode).toBe(200);
      return reportStatsResponse.parse(response.json());
    };

    const stats = await read();
    expect(stats.total).toBe(4);
    expect(stats.by_finding).toEqual({
      substantiated: 1,
      partially_substantiated: 1,
      not_substantiated: 1,
      none: 1,
    });
    // A case counts once under each of its actions.
    expect(stats.by_action).toEqual({ ...zero, warning: 1, reprimand: 1, training: 2, none: 1 });

    // Reopened and closed with another outcome, the case moves from one finding and action to the other.
    await patch(ids[2]!, { status: 'investigating', internal_note: '새 증거가 들어왔습니다.' });
    await patch(ids[2]!, { status: 'closed', outcome: outcome('substantiated', ['dismissal']) });
    const after = await read();
    expect(after.by_finding).toEqual({
      substantiated: 2,
      partially_substantiated: 1,
      not_substantiated: 0,
      none: 1,
    });
    expect(after.by_action).toEqual({ ...zero, warning: 1, reprimand: 1, training: 2, dismissal: 1 });

    const incremental = await snapshot(companyId);
    await rebuildStats(ctx.database, companyId);
    expect(await snapshot(companyId)).toEqual(incremental);
  });
});

/** A report row straight into the table (the triggers do not care who writes). */
async function insertReport(companyId: string, values: Record<string, unknown> = {}): Promise<string> {
  const id = randomUUID();
  const row = {
    id,
    company_id: companyId,
    report_type: 'brief',
    case_number: `P-${id}`,
    form: '{}',
    ack_due_at: new Date(Date.now() + 7 * 86400e3).toISOString(),
    feedback_due_at: new Date(Date.now() + 90 * 86400e3).toISOString(),
    ...values,
  };
  const columns = Object.keys(row);
  await ctx.database.query(
    `INSERT INTO reports (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
    Object.values(row),
  );
  return id;
}

const day = 86400e3;
const base = Date.parse('2026-01-15T12:00:00Z');
const write = fc.oneof(
  fc.record({
    kind: fc.constant('submit' as const),
    type: fc.constantFrom('anonym', 'brief', 'formal'),
    department: fc.constantFrom('', '영업팀', '개발팀'),
    relationship: fc.constantFrom('', ...RELATIONSHIP_OPTIONS_KO),
    offsetDays: fc.integer({ min: 0, max: 90 }),
    company: fc.integer({ min: 0, max: 1 }),
  }),
  fc.record({
    kind: fc.constant('status' as const),
    pick: fc.nat(),
    status: fc.constantFrom(...REPORT_STATUSES),
    afterDays: fc.integer({ min: 0, max: 40 }),
  }),
  fc.record({
    kind: fc.constant('outcome' as const),
    pick: fc.nat(),
    finding: fc.constantFrom(...CASE_FINDINGS),
    actions: fc.subarray([...CASE_ACTIONS], { maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant('reopen' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('deadline' as const),
    pick: fc.nat(),
    ackHours: fc.integer({ min: -120, max: 48 }),
    feedbackHours: fc.integer({ min: -120, max: 48 }),
  }),
  fc.record({ kind: fc.constant('feedback' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('erase' as const), company: fc.integer({ min: 0, max: 1 }) }),
);

describe('the statistics statement', () => {
  it('reads only key ranges and the waiting cases’ partial indexes under the one plan kept for every company', async () => {
    // STATS_SQL runs as a named statement: after a few runs PostgreSQL may keep one generic plan for it, made
    // without the values. A company of 3,000 cases, nearly all answered and closed, as a real one is: its
    // plan must then read the waiting cases off their partial indexes, with the day's bounds in the index
    // condition, and scan no table (sequential scans priced out, so a plan that still scans could not use the
    // index with a parameter in place of a value).
    const scratch = await createCompany(ctx, '계획 주식회사', 'plan-stats.example');
    // Loaded and removed as a bulk load would be, the statistics triggers off (they would only count and
    // uncount the same rows): the summary tables the other tests compare never see these cases.
    const withoutTriggers = (statement: string) =>
      ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql.raw('SET LOCAL session_replication_role = replica'));
        await tx.execute(sql.raw(statement.replaceAll('$1', `'${scratch}'`)));
      });
    await withoutTriggers(
      `INSERT INTO reports (company_id, report_type, case_number, form, status, accused_name, ack_due_at,
         feedback_due_at, acknowledged_at, feedback_at, closed_at, created_at, updated_at)
       SELECT $1, 'formal', 'P' || lpad(i::text, 6, '0'), '{}'::jsonb,
         CASE WHEN i % 50 = 0 THEN 'received' ELSE 'closed' END, '',
         created + interval '7 days', created + interval '90 days',
         CASE WHEN i % 50 = 0 THEN NULL ELSE created + interval '1 day' END,
         CASE WHEN i % 50 = 0 THEN NULL ELSE created + interval '20 days' END,
         CASE WHEN i % 50 = 0 THEN NULL ELSE created + interval '30 days' END, created, created
       FROM (SELECT i, now() - (i % 700) * interval '1 day' AS created FROM generate_series(1, 3000) AS i) AS s`,
    );
    await ctx.database.query('ANALYZE reports');
    const now = Date.now();
    const values = statsParams({ companyId: scratch, userId: randomUUID() }, statsRange({}, now), now)
      .map((value) => `'${String(value)}'`)
      .join(', ');
    try {
      const plan = await ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`PREPARE stats_generic AS ${STATS_SQL}`));
        await tx.execute(sql.raw('SET LOCAL plan_cache_mode = force_generic_plan'));
        await tx.execute(sql.raw('SET LOCAL enable_seqscan = off'));
        const explained = await tx.execute(sql.raw(`EXPLAIN (FORMAT JSON) EXECUTE stats_generic(${values})`));
        await tx.execute(sql.raw('DEALLOCATE stats_generic'));
        return JSON.stringify((explained as unknown as { rows: unknown[] }).rows);
      });
      expect(plan).toContain('(company_id = $1)');
      expect(plan).not.toContain('Seq Scan');
      for (const [index, column] of [
        ['reports_ack_waiting_idx', 'ack_due_at'],
        ['reports_feedback_waiting_idx', 'feedback_due_at'],
        ['reports_both_waiting_idx', 'GREATEST(ack_due_at, feedback_due_at)'],
      ]) {
        expect(plan).toContain(`"Index Name":"${index}","Relation Name":"reports"`);
        expect(plan).toContain(`(${column} >= $5) AND (${column} < $6)`);
      }
    } finally {
      await withoutTriggers('DELETE FROM reports WHERE company_id = $1');
    }
  });
});

describe('incremental statistics', () => {
  it('equal a rebuild from the reports after any sequence of writes', async () => {
    const companies = [
      await createCompany(ctx, '속성 가', 'prop-a.example'),
      await createCompany(ctx, '속성 나', 'prop-b.example'),
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 12 }), async (writes) => {
        const ids: string[] = [];
        const pick = (n: number) => ids[n % ids.length]!;
        for (const w of writes) {
          if (w.kind === 'submit') {
            ids.push(
              await insertReport(companies[w.company]!, {
                report_type: w.type,
                accused_department: w.department,
                relationship: w.relationship,
                created_at: new Date(base + w.offsetDays * day).toISOString(),
              }),
            );
          } else if (ids.length === 0) {
          } else if (w.kind === 'status') {
            const at = new Date(base + w.afterDays * day).toISOString();
            const closing = w.status === 'closed' || w.status === 'dismissed';
            await ctx.database.query(
              `UPDATE reports SET status = $2, acknowledged_at = coalesce(acknowledged_at, $3::timestamptz),
                 closed_at = CASE WHEN $4 THEN $3::timestamptz ELSE NULL END WHERE id = $1`,
              [pick(w.pick), w.status, at, closing],
            );
          } else if (w.kind === 'outcome') {
            await ctx.database.query(
              `UPDATE reports SET outcome_finding = $2, outcome_actions = $3::jsonb, outcome_at = now() WHERE id = $1`,
              [pick(w.pick), w.finding, JSON.stringify(w.actions)],
            );
          } else if (w.kind === 'deadline') {
            await ctx.database.query(
              'UPDATE reports SET ack_due_at = $2, feedback_due_at = $3 WHERE id = $1',
              [
                pick(w.pick),
                new Date(Date.now() + w.ackHours * 3600e3).toISOString(),
                new Date(Date.now() + w.feedbackHours * 3600e3).toISOString(),
              ],
            );
          } else if (w.kind === 'feedback') {
            await ctx.database.query('UPDATE reports SET feedback_at = now() WHERE id = $1', [pick(w.pick)]);
          } else if (w.kind === 'reopen') {
            await ctx.database.query(
              `UPDATE reports SET status = 'investigating', closed_at = NULL WHERE id = $1`,
              [pick(w.pick)],
            );
          } else if (w.kind === 'delete') {
            // As the retention job does.
            const id = ids.splice(w.pick % ids.length, 1)[0]!;
            await ctx.database.query('DELETE FROM reports WHERE id = $1', [id]);
          } else {
            await eraseCompanyKeys(ctx.database, companies[w.company]!);
          }
        }
        // The overdue counts (histogram of the days before today + today's index range) equal a live count.
        for (const companyId of companies) {
          const [live] = await ctx.database.query<{ ack: number; feedback: number; total: number }>(
            `SELECT count(*) FILTER (WHERE acknowledged_at IS NULL AND ack_due_at < now())::int AS ack,
                    count(*) FILTER (WHERE feedback_at IS NULL AND closed_at IS NULL AND feedback_due_at < now())::int AS feedback,
                    count(*) FILTER (WHERE (acknowledged_at IS NULL AND ack_due_at < now())
                      OR (feedback_at IS NULL AND closed_at IS NULL AND feedback_due_at < now()))::int AS total
             FROM reports WHERE company_id = $1`,
            [companyId],
          );
          const stats = await companyStats(ctx.database, { companyId, userId: randomUUID() });
          expect(stats.overdue).toEqual(live);
        }
        const incremental = await Promise.all(companies.map((id) => snapshot(id)));
        await rebuildStats(ctx.database, null);
        const rebuilt = await Promise.all(companies.map((id) => snapshot(id)));
        expect(incremental).toEqual(rebuilt);
      }),
      { numRuns: 15 },
    );
  });
});
