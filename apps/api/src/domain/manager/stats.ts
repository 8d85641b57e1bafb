import { REPORT_STATUSES, REPORTER_TYPES } from '@ansim/shared/constants';
import { CASE_ACTIONS, CASE_FINDINGS } from '@ansim/shared/outcomes';
import { type ReportForm, reportFormSchema } from '@ansim/shared/report-form';
import { type ReportStats, type ReportStatsQuery, STATS_MAX_MONTHS } from '@ansim/shared/stats';
import type { Database } from '../../db/client.ts';
import { keptStatementName } from '../../db/kept-statements.ts';
import { openJson } from '../../encryption/codec.ts';
import { AppError } from '../../lib/app-error.ts';
import { statsDimensions } from '../reports/stat-dimensions.ts';

export type { ReportStats };

const KST_OFFSET_MS = 9 * 3600 * 1000;

const monthIndex = (month: string): number => {
  const [year, m] = month.split('-').map(Number);
  return year! * 12 + (m! - 1);
};
const monthOf = (index: number): string =>
  `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;

/** The current month in Korea's time zone (UTC+9 all year since 1988). */
export const currentSeoulMonth = (now = Date.now()): string =>
  new Date(now + KST_OFFSET_MS).toISOString().slice(0, 7);

/** The inclusive month range asked for: by default the 12 months up to the current one. */
export function statsRange(query: ReportStatsQuery, now = Date.now()): { from: string; to: string } {
  const to =
    query.date_to ?? (query.date_from ? monthOf(monthIndex(query.date_from) + 11) : currentSeoulMonth(now));
  const from = query.date_from ?? monthOf(monthIndex(to) - 11);
  const span = monthIndex(to) - monthIndex(from) + 1;
  if (span < 1)
    throw new AppError('VALIDATION_ERROR', { details: { date_from: '시작 월이 끝 월보다 늦습니다.' } });
  if (span > STATS_MAX_MONTHS)
    throw new AppError('VALIDATION_ERROR', {
      details: { date_from: `기간은 최대 ${STATS_MAX_MONTHS / 12}년까지 볼 수 있습니다.` },
    });
  return { from, to };
}

/** The median of a histogram of whole days; the mean of the two middle values for an even count. */
export function histogramMedian(histogram: Map<number, number>): number | null {
  const entries = [...histogram.entries()].filter(([, n]) => n > 0).sort(([a], [b]) => a - b);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const valueAt = (rank: number): number => {
    let seen = 0;
    for (const [days, n] of entries) {
      seen += n;
      if (rank < seen) return days;
    }
    return entries.at(-1)![0];
  };
  return (valueAt(Math.floor((total - 1) / 2)) + valueAt(Math.floor(total / 2))) / 2;
}

interface CountRow {
  month: string;
  dimension: string;
  value: string;
  n: number;
}
interface DurationRow {
  measure: 'ack' | 'close';
  days: number;
  n: number;
}

/**
 * The statistics' SQL: one statement, one round trip, exported so the bench can EXPLAIN exactly what the API
 * runs. $1 company, $2 viewer, $3 and $4 the first days of the first and last months, $5 today 00:00 UTC,
 * $6 now. Each row is `(part, a, b, n)`:
 * - `count` (a month, b `dimension|value`) and `duration` (a measure, b days): the summary tables;
 * - `-count`, `-duration`: the same for the cases the viewer is excluded from, to subtract;
 * - `overdue` (a `ack`, `feedback` or `both`): the waiting cases due on days before today from the histogram
 *   the triggers keep, plus today's due before now off the partial indexes; `-overdue`: the excluded ones.
 */
export const STATS_SQL = `
WITH excluded AS (
  SELECT r AS rep FROM case_exclusions e JOIN reports r ON r.id = e.report_id
  WHERE e.user_id = $2 AND r.company_id = $1
)
SELECT 'count' AS part, to_char(month, 'YYYY-MM') AS a, dimension || '|' || value AS b, count AS n
FROM report_stat_counts WHERE company_id = $1 AND month BETWEEN $3::date AND $4::date AND count <> 0
UNION ALL
SELECT 'duration', measure, days::text, sum(count)::int
FROM report_stat_durations WHERE company_id = $1 AND month BETWEEN $3::date AND $4::date
GROUP BY measure, days
UNION ALL
SELECT '-count', to_char(s.month, 'YYYY-MM'), s.dimension || '|' || s.value, count(*)::int
FROM excluded x CROSS JOIN LATERAL report_stat_rows(x.rep) s
WHERE s.month BETWEEN $3::date AND $4::date GROUP BY 2, 3
UNION ALL
SELECT '-duration', s.measure, s.days::text, count(*)::int
FROM excluded x CROSS JOIN LATERAL report_stat_duration_rows(x.rep) s
WHERE s.month BETWEEN $3::date AND $4::date GROUP BY 2, 3
UNION ALL
SELECT 'overdue', w.kind, '', (w.n + CASE w.kind
    WHEN 'ack' THEN (SELECT count(*) FROM reports WHERE company_id = $1 AND acknowledged_at IS NULL
                       AND ack_due_at >= $5::timestamptz AND ack_due_at < $6::timestamptz)
    WHEN 'feedback' THEN (SELECT count(*) FROM reports WHERE company_id = $1 AND feedback_at IS NULL
                            AND closed_at IS NULL AND feedback_due_at >= $5::timestamptz
                            AND feedback_due_at < $6::timestamptz)
    ELSE (SELECT count(*) FROM reports WHERE company_id = $1 AND acknowledged_at IS NULL AND feedback_at IS NULL
            AND closed_at IS NULL AND greatest(ack_due_at, feedback_due_at) >= $5::timestamptz
            AND greatest(ack_due_at, feedback_due_at) < $6::timestamptz)
  END)::int
FROM (
  SELECT k.kind, coalesce(sum(h.count), 0) AS n
  FROM (VALUES ('ack'), ('feedback'), ('both')) AS k (kind)
  LEFT JOIN report_stat_waiting h
    ON h.company_id = $1 AND h.kind = k.kind AND h.due_day < ($5::timestamptz AT TIME ZONE 'UTC')::date
  GROUP BY k.kind
) AS w
UNION ALL
SELECT '-overdue', s.kind, '', count(*)::int
FROM excluded x CROSS JOIN LATERAL report_stat_waiting_rows(x.rep) s
WHERE CASE s.kind WHEN 'ack' THEN (x.rep).ack_due_at WHEN 'feedback' THEN (x.rep).feedback_due_at
                  ELSE greatest((x.rep).ack_due_at, (x.rep).feedback_due_at) END < $6::timestamptz
GROUP BY 2`;

/**
 * STATS_SQL is a named statement: parsing and planning it took about as long as running it (3.1 ms and 3.6 ms at
 * 1,000,000 cases), and its plan reads the same key ranges whatever the company, range or viewer, so PostgreSQL
 * may keep one generic plan per connection (`stats.test.ts` holds that plan to the indexes).
 */
export const STATS_STATEMENT_NAME = keptStatementName(STATS_SQL);

interface StatsRow {
  part: 'count' | 'duration' | '-count' | '-duration' | 'overdue' | '-overdue';
  a: string;
  b: string;
  n: number;
}

/** The parameters of STATS_SQL for a viewer, a range and a moment. */
export function statsParams(
  viewer: { companyId: string; userId: string },
  range: { from: string; to: string },
  now: number,
): unknown[] {
  const nowIso = new Date(now).toISOString();
  return [
    viewer.companyId,
    viewer.userId,
    `${range.from}-01`,
    `${range.to}-01`,
    `${nowIso.slice(0, 10)}T00:00:00Z`,
    nowIso,
  ];
}

/**
 * A company's statistics for a range of months of receipt, read off the summary tables the triggers of
 * migration 0011 keep (`report_stat_counts`, `report_stat_durations`, `report_stat_waiting`): a few hundred
 * rows however many cases the company has, in one statement (STATS_SQL). Overdue counts change with the clock:
 * the days before today come from the histogram of waiting cases, today's from the partial indexes.
 *
 * A viewer excluded from cases by a conflict of interest sees the statistics without those cases: their
 * contribution, computed from the same SQL functions as the triggers, is subtracted, so the counts never
 * tell the accused person that a case about them arrived.
 */
export async function companyStats(
  database: Database,
  viewer: { companyId: string; userId: string },
  query: ReportStatsQuery = {},
  now = Date.now(),
): Promise<ReportStats> {
  const { from, to } = statsRange(query, now);
  const rows = await database.query<StatsRow>(STATS_SQL, statsParams(viewer, { from, to }, now), {
    name: STATS_STATEMENT_NAME,
  });
  const counts: CountRow[] = [];
  const excludedCounts: CountRow[] = [];
  const durations: DurationRow[] = [];
  const excludedDurations: DurationRow[] = [];
  const overdue = { ack: 0, feedback: 0, both: 0 };
  const excludedOverdue = { ack: 0, feedback: 0, both: 0 };
  for (const row of rows) {
    const n = Number(row.n);
    if (row.part === 'count' || row.part === '-count') {
      const split = row.b.indexOf('|');
      const entry = { month: row.a, dimension: row.b.slice(0, split), value: row.b.slice(split + 1), n };
      (row.part === 'count' ? counts : excludedCounts).push(entry);
    } else if (row.part === 'duration' || row.part === '-duration') {
      const entry = { measure: row.a as DurationRow['measure'], days: Number(row.b), n };
      (row.part === 'duration' ? durations : excludedDurations).push(entry);
    } else if (row.a === 'ack' || row.a === 'feedback' || row.a === 'both') {
      (row.part === 'overdue' ? overdue : excludedOverdue)[row.a] += n;
    }
  }

  const months = new Map<string, number>();
  for (let i = monthIndex(from); i <= monthIndex(to); i++) months.set(monthOf(i), 0);
  const byStatus = Object.fromEntries(REPORT_STATUSES.map((key) => [key, 0])) as ReportStats['by_status'];
  const byType = Object.fromEntries(REPORTER_TYPES.map((key) => [key, 0])) as ReportStats['by_type'];
  const byFinding = Object.fromEntries(
    [...CASE_FINDINGS, 'none'].map((key) => [key, 0]),
  ) as ReportStats['by_finding'];
  const byAction = Object.fromEntries(CASE_ACTIONS.map((key) => [key, 0])) as ReportStats['by_action'];
  const departments = new Map<string, number>();
  const relationships = new Map<string, number>();
  let total = 0;

  const add = (row: CountRow, sign: 1 | -1) => {
    const n = sign * row.n;
    const bump = (target: Record<string, number>, key: string) => {
      // A value the code does not know (a later migration's status, say) is left out rather than invented.
      if (key in target) target[key] = (target[key] ?? 0) + n;
    };
    const bumpMap = (target: Map<string, number>, key: string) => target.set(key, (target.get(key) ?? 0) + n);
    switch (row.dimension) {
      case 'total':
        total += n;
        months.set(row.month, (months.get(row.month) ?? 0) + n);
        break;
      case 'status':
        bump(byStatus, row.value);
        break;
      case 'type':
        bump(byType, row.value);
        break;
      case 'finding':
        bump(byFinding, row.value === '' ? 'none' : row.value);
        break;
      case 'action':
        bump(byAction, row.value);
        break;
      case 'department':
        bumpMap(departments, row.value);
        break;
      case 'relationship':
        bumpMap(relationships, row.value);
        break;
    }
  };
  for (const row of counts) add(row, 1);
  for (const row of excludedCounts) add(row, -1);

  const histograms = { ack: new Map<number, number>(), close: new Map<number, number>() };
  for (const row of durations)
    histograms[row.measure].set(row.days, (histograms[row.measure].get(row.days) ?? 0) + row.n);
  for (const row of excludedDurations)
    histograms[row.measure].set(row.days, (histograms[row.measure].get(row.days) ?? 0) - row.n);

  const ranked = (map: Map<string, number>) =>
    [...map.entries()]
      .filter(([, count]) => count > 0)
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value, 'ko'));

  return {
    date_from: from,
    date_to: to,
    total,
    by_status: byStatus,
    by_type: byType,
    by_month: [...months.entries()].map(([month, count]) => ({ month, count })),
    by_finding: byFinding,
    by_action: byAction,
    by_department: ranked(departments),
    by_relationship: ranked(relationships),
    median_days_to_acknowledge: histogramMedian(histograms.ack),
    median_days_to_close: histogramMedian(histograms.close),
    overdue: {
      ack: overdue.ack - excludedOverdue.ack,
      feedback: overdue.feedback - excludedOverdue.feedback,
      // Either deadline: ack + feedback - both.
      total:
        overdue.ack +
        overdue.feedback -
        overdue.both -
        (excludedOverdue.ack + excludedOverdue.feedback - excludedOverdue.both),
    },
  };
}

/** Recomputes the summary tables from `reports`, for one company or all (`npm run admin -- stats:rebuild`). */
export async function rebuildStats(database: Database, companyId: string | null): Promise<void> {
  // One statement, so one transaction: the function's SHARE lock on `reports` holds until it ends.
  await database.query('SELECT report_stats_rebuild($1::uuid)', [companyId]);
}

/**
 * Reports without either statistics dimension (submitted before migration 0011, or with neither given) get
 * them from their sealed forms; an unreadable form (erased key) is left as it is. In batches, by id.
 */
export async function backfillStatsDimensions(
  database: Database,
  companyId: string | null,
): Promise<{ updated: number; unreadable: number }> {
  let updated = 0;
  let unreadable = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await database.query<{ id: string; form: unknown }>(
      `SELECT id, form FROM reports
       WHERE ($1::uuid IS NULL OR company_id = $1) AND accused_department = '' AND relationship = ''
         AND id > $2::uuid
       ORDER BY id LIMIT 200`,
      [companyId, after],
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      after = row.id;
      let form: ReportForm;
      try {
        form = reportFormSchema.parse(await openJson<unknown>(database, 'reports.form', row.id, row.form));
      } catch {
        unreadable++;
        continue;
      }
      const dimensions = statsDimensions(form);
      if (!dimensions.accusedDepartment && !dimensions.relationship) continue;
      await database.query(
        `UPDATE reports SET accused_department = $2, relationship = $3
         WHERE id = $1 AND accused_department = '' AND relationship = ''`,
        [row.id, dimensions.accusedDepartment, dimensions.relationship],
      );
      updated++;
    }
  }
  return { updated, unreadable };
}
