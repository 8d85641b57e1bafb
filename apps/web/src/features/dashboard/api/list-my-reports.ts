import type { ReportStatus, ReportType } from '@ansim/shared/constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

export interface ReportSummary {
  id: string;
  case_number: string;
  report_type: ReportType;
  status: ReportStatus;
  created_at: string;
  updated_at: string;
}

export interface ReportPage {
  count: number;
  next: string | null;
  previous: string | null;
  results: ReportSummary[];
}

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
