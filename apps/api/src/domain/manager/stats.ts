import { REPORT_STATUSES, REPORTER_TYPES } from '@ansim/shared/constants';
import type { Database } from '../../db/client.ts';

export interface ReportStats {
  total: number;
  by_status: Record<string, number>;
  by_type: Record<string, number>;
  /** The last 12 months including the current one, oldest first, months in Korea's time zone. */
  by_month: { month: string; count: number }[];
  median_days_to_close: number | null;
  overdue: { ack: number; feedback: number; total: number };
}

/** Company statistics in four aggregate queries; nothing is counted outside the manager's company. */
export async function companyStats(database: Database, companyId: string): Promise<ReportStats> {
  const [groups, months, [median], [overdue]] = await Promise.all([
    database.query<{ status: string; report_type: string; n: number }>(
      'SELECT status, report_type, count(*)::int AS n FROM reports WHERE company_id = $1 GROUP BY status, report_type',
      [companyId],
    ),
    database.query<{ month: string; n: number }>(
      `SELECT to_char(date_trunc('month', created_at AT TIME ZONE 'Asia/Seoul'), 'YYYY-MM') AS month, count(*)::int AS n
       FROM reports
       WHERE company_id = $1
         AND created_at >= (date_trunc('month', now() AT TIME ZONE 'Asia/Seoul') - interval '11 months') AT TIME ZONE 'Asia/Seoul'
       GROUP BY 1`,
      [companyId],
    ),
    database.query<{ days: number | null }>(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM closed_at - created_at) / 86400)::float8 AS days
       FROM reports WHERE company_id = $1 AND closed_at IS NOT NULL`,
      [companyId],
    ),
    database.query<{ ack: number; feedback: number; total: number }>(
      `SELECT count(*) FILTER (WHERE acknowledged_at IS NULL AND ack_due_at < now())::int AS ack,
              count(*) FILTER (WHERE feedback_at IS NULL AND closed_at IS NULL AND feedback_due_at < now())::int AS feedback,
              count(*) FILTER (WHERE (acknowledged_at IS NULL AND ack_due_at < now())
                                  OR (feedback_at IS NULL AND closed_at IS NULL AND feedback_due_at < now()))::int AS total
       FROM reports WHERE company_id = $1`,
      [companyId],
    ),
  ]);
  const byStatus = Object.fromEntries(REPORT_STATUSES.map((status) => [status, 0]));
  const byType = Object.fromEntries(REPORTER_TYPES.map((type) => [type, 0]));
  let total = 0;
  for (const group of groups) {
    byStatus[group.status] = (byStatus[group.status] ?? 0) + group.n;
    byType[group.report_type] = (byType[group.report_type] ?? 0) + group.n;
    total += group.n;
  }
  const counts = new Map(months.map((row) => [row.month, row.n]));
  const seoulNow = new Date(Date.now() + 9 * 3600 * 1000);
  const byMonth = Array.from({ length: 12 }, (_, i) => {
    const date = new Date(Date.UTC(seoulNow.getUTCFullYear(), seoulNow.getUTCMonth() - (11 - i), 1));
    const month = `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
    return { month, count: counts.get(month) ?? 0 };
  });
  const days = median?.days;
  return {
    total,
    by_status: byStatus,
    by_type: byType,
    by_month: byMonth,
    median_days_to_close: days === null || days === undefined ? null : Math.round(Number(days) * 10) / 10,
    overdue: { ack: overdue?.ack ?? 0, feedback: overdue?.feedback ?? 0, total: overdue?.total ?? 0 },
  };
}
