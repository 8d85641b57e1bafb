import type { ReportStats } from '@ansim/shared/contract/manager';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

export const REPORT_STATS_PATH = '/api/v1/manager/stats/reports';

/** A month range, `YYYY-MM` both, inclusive; unset means the API's default (the last 12 months). */
export interface StatsRange {
  from?: string;
  to?: string;
}

const statsUrl = (range: StatsRange) => {
  const search = new URLSearchParams();
  if (range.from) search.set('date_from', range.from);
  if (range.to) search.set('date_to', range.to);
  const query = search.toString();
  return query ? `${REPORT_STATS_PATH}?${query}` : REPORT_STATS_PATH;
};

export const getReportStats = (range: StatsRange = {}, signal?: AbortSignal) =>
  request<ReportStats>('get', statsUrl(range), { signal });

export const reportStatsQuery = (range: StatsRange = {}) =>
  queryOptions({
    queryKey: queryKey(REPORT_STATS_PATH, { query: { date_from: range.from, date_to: range.to } }),
    queryFn: ({ signal }) => getReportStats(range, signal),
  });

export const useReportStats = (range: StatsRange = {}) => useQuery(reportStatsQuery(range));
