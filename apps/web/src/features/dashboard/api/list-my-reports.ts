import type { ReportPage, ReportSummary } from '@ansim/shared/contract/report';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

export type { ReportPage, ReportSummary };

const PATH = '/api/v1/report/';
export const MY_REPORTS_PAGE_SIZE = 10;

export const myReportsQuery = (page: number) => {
  const query = { page, page_size: MY_REPORTS_PAGE_SIZE };
  return {
    queryKey: queryKey(PATH, { query }),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      request<ReportPage>('get', PATH, { params: query, signal }),
  };
};

/** The caller's own reports, newest first; the previous page stays on screen while the next one loads. */
export const useMyReports = (page: number) =>
  useQuery({ ...myReportsQuery(page), placeholderData: keepPreviousData });
