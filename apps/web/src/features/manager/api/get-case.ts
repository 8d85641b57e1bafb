import type { ManagerCase } from '@ansim/shared/contract/manager';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fillPath, queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

export const MANAGER_CASE_PATH = '/api/v1/manager/report/{id}';

export const getManagerCase = (id: string, signal?: AbortSignal) =>
  request<ManagerCase>('get', fillPath(MANAGER_CASE_PATH, { id }), { signal });

export const managerCaseKey = (id: string) => queryKey(MANAGER_CASE_PATH, { params: { id } });

export const managerCaseQuery = (id: string) =>
  queryOptions({ queryKey: managerCaseKey(id), queryFn: ({ signal }) => getManagerCase(id, signal) });

export const useManagerCase = (id: string) => useQuery(managerCaseQuery(id));
