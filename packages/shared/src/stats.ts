import { z } from 'zod';
import { REPORT_STATUSES, REPORTER_TYPES } from './constants';
import { CASE_ACTIONS, CASE_FINDINGS } from './outcomes';

/** A month as `YYYY-MM` (Korea's time zone): the statistics' date range has month granularity. */
export const statsMonth = z
  .string()
  .regex(/^(19|20|21)\d\d-(0[1-9]|1[0-2])$/u, '연월은 YYYY-MM 형식으로 적어주세요.');

/** At most ten years in one request: the monthly series is zero-filled over the range. */
export const STATS_MAX_MONTHS = 120;

export const reportStatsQuery = z.object({
  /** First month counted (inclusive); by default 11 months before `date_to`. */
  date_from: statsMonth.optional(),
  /** Last month counted (inclusive); by default the current month. */
  date_to: statsMonth.optional(),
});
export type ReportStatsQuery = z.infer<typeof reportStatsQuery>;

const count = z.number().int().nonnegative();
const counts = <T extends readonly [string, ...string[]]>(keys: T) =>
  z.object(Object.fromEntries(keys.map((key) => [key, count])) as { [K in T[number]]: typeof count });
const valueCounts = z.array(z.object({ value: z.string(), count }));

/**
 * `GET /api/v1/manager/stats/reports`: every count is over the cases received in the months from `date_from`
 * to `date_to` (inclusive); the overdue counts are of every case overdue now, whenever it was received.
 */
export const reportStatsResponse = z.object({
  date_from: statsMonth,
  date_to: statsMonth,
  total: count,
  by_status: counts(REPORT_STATUSES),
  by_type: counts(REPORTER_TYPES),
  /** Every month of the range, oldest first, zero-filled. */
  by_month: z.array(z.object({ month: statsMonth, count })),
  /** `none`: no outcome recorded yet. */
  by_finding: counts([...CASE_FINDINGS, 'none'] as const),
  /** A case with several actions counts once under each. */
  by_action: counts(CASE_ACTIONS),
  /** The accused person's department as written ('' = not given), most cases first. */
  by_department: valueCounts,
  /** One of RELATIONSHIP_OPTIONS_KO ('' = not given), most cases first. */
  by_relationship: valueCounts,
  /** In whole days (each case's days rounded down), null with no case acknowledged / closed in the range. */
  median_days_to_acknowledge: z.number().nonnegative().nullable(),
  median_days_to_close: z.number().nonnegative().nullable(),
  overdue: z.object({ ack: count, feedback: count, total: count }),
});
export type ReportStats = z.infer<typeof reportStatsResponse>;
