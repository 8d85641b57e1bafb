import type { CreateCompanyBody, OperatorCompany } from '@ansim/shared/operator';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fillPath, queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

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

export const createCompany = (body: CreateCompanyBody) =>
  request<{ id: string; join_code: string }>('post', OPERATOR_COMPANIES_PATH, { data: body });

export function useCreateCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCompany,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKey(OPERATOR_COMPANIES_PATH) }),
  });
}

export const setSuspended = (id: string, suspended: boolean) =>
  request<{ id: string; suspended_at: string | null }>(
    'post',
    fillPath(SUSPEND_PATH, { id, action: suspended ? 'suspend' : 'resume' }),
  );

export function useSetSuspended() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, suspended }: { id: string; suspended: boolean }) => setSuspended(id, suspended),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKey(OPERATOR_COMPANIES_PATH) }),
  });
}
