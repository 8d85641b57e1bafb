import type { PlatformHealth } from '@ansim/shared/contract/operator';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

export const OPERATOR_HEALTH_PATH = '/api/v1/operator/health';

export const getHealth = (signal?: AbortSignal) =>
  request<PlatformHealth>('get', OPERATOR_HEALTH_PATH, { signal });

export const platformHealthQuery = () =>
  queryOptions({
    queryKey: queryKey(OPERATOR_HEALTH_PATH),
    queryFn: ({ signal }) => getHealth(signal),
    // A backlog is something to watch grow or shrink.
    refetchInterval: 60_000,
  });

export const usePlatformHealth = () => useQuery(platformHealthQuery());
