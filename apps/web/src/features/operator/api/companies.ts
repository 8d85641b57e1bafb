import type { OperatorCompany } from '@ansim/shared/contract/operator';
import type { CreateCompanyBody } from '@ansim/shared/operator';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fillPath, queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';
import { OPERATOR_AUDIT_PATH } from './audit';

export const OPERATOR_COMPANIES_PATH = '/api/v1/operator/companies';
const SUSPEND_PATH = '/api/v1/operator/companies/{id}/{action}';

export const listCompanies = (signal?: AbortSignal) =>
  request<OperatorCompany[]>('get', OPERATOR_COMPANIES_PATH, { signal });

export const operatorCompaniesQuery = () =>
  queryOptions({
    queryKey: queryKey(OPERATOR_COMPANIES_PATH),
    queryFn: ({ signal }) => listCompanies(signal),
  });

export const useOperatorCompanies = () => useQuery(operatorCompaniesQuery());

/** A company created, suspended or resumed is a new line of the operator's log too. */
function useRefreshAfterChange() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKey(OPERATOR_COMPANIES_PATH) }),
      queryClient.invalidateQueries({ queryKey: queryKey(OPERATOR_AUDIT_PATH) }),
    ]);
}

export const createCompany = (body: CreateCompanyBody) =>
  request<{ id: string; join_code: string }>('post', OPERATOR_COMPANIES_PATH, { data: body });

export function useCreateCompany() {
  const refresh = useRefreshAfterChange();
  return useMutation({ mutationFn: createCompany, onSuccess: refresh });
}

export const setSuspended = (id: string, suspended: boolean) =>
  request<{ id: string; suspended_at: string | null }>(
    'post',
    fillPath(SUSPEND_PATH, { id, action: suspended ? 'suspend' : 'resume' }),
  );

export function useSetSuspended() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ id, suspended }: { id: string; suspended: boolean }) => setSuspended(id, suspended),
    onSuccess: refresh,
  });
}
