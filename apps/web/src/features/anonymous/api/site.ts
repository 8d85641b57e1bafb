import { useQuery } from '@tanstack/react-query';
import { queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

export interface SiteInfo {
  operator_name: string;
  operator_contact: string;
}

const SITE_PATH = '/api/v1/site/';

/** Who operates this installation (server configuration): part of telling a reporter whom they trust. */
export const useSiteInfo = () =>
  useQuery({
    queryKey: queryKey(SITE_PATH),
    queryFn: ({ signal }) => request<SiteInfo>('get', SITE_PATH, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
