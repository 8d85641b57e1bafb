import type { OperatorAuditPage } from '@ansim/shared/contract/operator';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

export const OPERATOR_AUDIT_PATH = '/api/v1/operator/audit';

export const getOperatorAudit = (page: number, signal?: AbortSignal) =>
  request<OperatorAuditPage>('get', OPERATOR_AUDIT_PATH, { signal, params: { page } });

export const useOperatorAudit = (page: number) =>
  useQuery({
    queryKey: queryKey(OPERATOR_AUDIT_PATH, { query: { page } }),
    queryFn: ({ signal }) => getOperatorAudit(page, signal),
    // The list keeps its height while the next page loads.
    placeholderData: keepPreviousData,
  });
