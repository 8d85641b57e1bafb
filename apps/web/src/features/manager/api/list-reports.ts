import type { ManagerListPage } from '@ansim/shared/contract/manager';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';
import { type ManagerFilters, toApiParams } from '../lib/filters';

export const MANAGER_REPORTS_PATH = '/api/v1/manager/report/';

export const listManagerReports = (params: Record<string, string>, signal?: AbortSignal) =>
  request<ManagerListPage>('get', MANAGER_REPORTS_PATH, { params, signal });

export const managerReportsQuery = (filters: ManagerFilters) => {
  const params = toApiParams(filters);
  return queryOptions({
    queryKey: queryKey(MANAGER_REPORTS_PATH, { query: params }),
    queryFn: ({ signal }) => listManagerReports(params, signal),
    // The table keeps the previous page on screen while the next one loads, so it does not jump.
    placeholderData: keepPreviousData,
  });
};

export const useManagerReports = (filters: ManagerFilters) => useQuery(managerReportsQuery(filters));
