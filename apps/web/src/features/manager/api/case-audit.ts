import type { CaseAuditRow } from '@ansim/shared/contract/manager';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fillPath, queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

export const CASE_AUDIT_PATH = '/api/v1/manager/report/{id}/audit';

export interface CaseAuditFilter {
  action?: string;
  user_id?: string;
}

/** The case's log filtered by action and by user; unfiltered, the case view's own log is used instead. */
export function useCaseAudit(id: string, filter: CaseAuditFilter) {
  const params = Object.fromEntries(Object.entries(filter).filter(([, value]) => value));
  return useQuery({
    queryKey: queryKey(CASE_AUDIT_PATH, { params: { id }, query: params }),
    queryFn: ({ signal }) =>
      request<CaseAuditRow[]>('get', fillPath(CASE_AUDIT_PATH, { id }), { params, signal }),
    enabled: Object.keys(params).length > 0,
    placeholderData: keepPreviousData,
  });
}
