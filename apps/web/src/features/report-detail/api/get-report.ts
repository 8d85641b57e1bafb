import type { ReporterReportDetail } from '@ansim/shared/contract/report';
import { useQuery } from '@tanstack/react-query';
import { fillPath, queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

export type { ReporterReportDetail as ReportDetail };

export const REPORT_PATH = '/api/v1/report/{id}';

export const reportQuery = (id: string) => ({
  queryKey: queryKey(REPORT_PATH, { params: { id } }),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    request<ReporterReportDetail>('get', fillPath(REPORT_PATH, { id }), { signal }),
});

/** The reporter's own report; kept current by the page's case stream (useReportEvents) and on tab focus. */
export const useReport = (id: string) => useQuery({ ...reportQuery(id), refetchOnWindowFocus: true });
