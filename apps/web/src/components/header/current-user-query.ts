import type { CurrentUser } from '@ansim/shared/contract/user';
import { queryKey } from '../../lib/query-keys';

export const CURRENT_USER_PATH = '/api/v1/user/';

/** Plain query options (no TanStack import) so the header can name the query without loading the library. */
export const currentUserQuery = () => ({
  queryKey: queryKey(CURRENT_USER_PATH),
  queryFn: async ({ signal }: { signal: AbortSignal }): Promise<CurrentUser> => {
    const { request } = await import('../../lib/request');
    return request<CurrentUser>('get', CURRENT_USER_PATH, { signal });
  },
  staleTime: 60_000,
});
