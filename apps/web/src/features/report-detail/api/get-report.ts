import type { ReportStatus } from '@ansim/shared/constants';
import type { ReportForm } from '@ansim/shared/report-form';
import { useQuery } from '@tanstack/react-query';
import { fillPath, queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';
import type { ReportSummary } from '../../dashboard/api/list-my-reports';

export interface ReportDetail extends ReportSummary {
  form: ReportForm;
  files: { id: string; name: string; size: number; content_type: string }[];
  /** Status changes with the notes meant for the reporter (internal notes never reach this page). */
  history: {
    from_status: ReportStatus | null;
    to_status: ReportStatus;
    note_for_reporter: string;
    created_at: string;
  }[];
  /** Whether statements were collected — never what they say nor who gave them. */
  statements: {
    defendant: 'not_requested' | 'requested' | 'responded';
    references_requested: number;
    references_responded: number;
  };
  measures: {
    measure: string;
    detail: string;
    decision: 'pending' | 'granted' | 'refused';
    reason: string;
    decided_at: string | null;
  }[];
}

export const REPORT_PATH = '/api/v1/report/{id}';

export const reportQuery = (id: string) => ({
  queryKey: queryKey(REPORT_PATH, { params: { id } }),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    request<ReportDetail>('get', fillPath(REPORT_PATH, { id }), { signal }),
});

/** The reporter's own report; kept current by the page's case stream (useReportEvents) and on tab focus. */
export const useReport = (id: string) => useQuery({ ...reportQuery(id), refetchOnWindowFocus: true });
