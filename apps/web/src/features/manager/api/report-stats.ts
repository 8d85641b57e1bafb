import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';
import type { ReportStats } from './types';

export const REPORT_STATS_PATH = '/api/v1/manager/stats/reports';

export const getReportStats = (signal?: AbortSignal) =>
  request<ReportStats>('get', REPORT_STATS_PATH, { signal });

export const reportStatsQuery = () =>
  queryOptions({ queryKey: queryKey(REPORT_STATS_PATH), queryFn: ({ signal }) => getReportStats(signal) });

export const useReportStats = () => useQuery(reportStatsQuery());
