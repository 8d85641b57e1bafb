import type { CompanySettingsPatch, InvitableRole } from '@ansim/shared/company-settings';
import type { CompanyRole } from '@ansim/shared/constants';
import type {
  CompanyAuditEntry,
  CompanyAuditPage,
  CompanySettings,
  Domains,
  IntakeCodeRotated,
  PendingCompanyInvitation,
  Person,
} from '@ansim/shared/contract/company';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

/** The company admin's settings API (R-CO-2): every path is the admin's own company; none takes an id of it. */
export const SETTINGS_PATH = '/api/v1/company/settings';
export const PEOPLE_PATH = '/api/v1/company/people';
export const INVITATIONS_PATH = '/api/v1/company/invitations';
export const DOMAINS_PATH = '/api/v1/company/domains';
export const AUDIT_PATH = '/api/v1/company/audit';

export type {
  CompanyAuditEntry as AuditEntry,
  CompanyAuditPage as AuditPage,
  CompanySettings,
  Domains,
  PendingCompanyInvitation as PendingInvitation,
  Person,
};

export interface AuditFilters {
  action?: string;
  user_id?: string;
  page: number;
}

export const settingsQuery = () =>
  queryOptions({
    queryKey: queryKey(SETTINGS_PATH),
    queryFn: ({ signal }) => request<CompanySettings>('get', SETTINGS_PATH, { signal }),
  });
export const useCompanySettings = () => useQuery(settingsQuery());

export const usePeople = () =>
  useQuery({
    queryKey: queryKey(PEOPLE_PATH),
    queryFn: ({ signal }) => request<{ results: Person[] }>('get', PEOPLE_PATH, { signal }),
    select: (data) => data.results,
  });

export const usePendingInvitations = () =>
  useQuery({
    queryKey: queryKey(INVITATIONS_PATH),
    queryFn: ({ signal }) =>
      request<{ results: PendingCompanyInvitation[] }>('get', INVITATIONS_PATH, { signal }),
    select: (data) => data.results,
  });

export const useDomains = () =>
  useQuery({
    queryKey: queryKey(DOMAINS_PATH),
    queryFn: ({ signal }) => request<Domains>('get', DOMAINS_PATH, { signal }),
  });

export const useAudit = (filters: AuditFilters) =>
  useQuery({
    queryKey: queryKey(AUDIT_PATH, { query: { ...filters } }),
    queryFn: ({ signal }) =>
      request<CompanyAuditPage>('get', AUDIT_PATH, {
        signal,
        params: Object.fromEntries(
          Object.entries(filters).filter(([, value]) => value !== undefined && value !== ''),
        ),
      }),
    placeholderData: (previous) => previous,
  });

/** Every change is in the log, so each mutation also refreshes it. */
function useSettingsMutation<V, R>(mutationFn: (variables: V) => Promise<R>, paths: string[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => {
      for (const path of [...paths, AUDIT_PATH])
        void queryClient.invalidateQueries({ queryKey: queryKey(path) });
    },
  });
}

export const useUpdateSettings = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: CompanySettingsPatch) =>
      request<CompanySettings>('patch', SETTINGS_PATH, { data: patch }),
    onSuccess: (settings) => {
      queryClient.setQueryData(queryKey(SETTINGS_PATH), settings);
      void queryClient.invalidateQueries({ queryKey: queryKey(AUDIT_PATH) });
    },
  });
};

export const useRotateJoinCode = () =>
  useSettingsMutation(
    () => request<{ join_code: string }>('post', '/api/v1/company/join-code/rotate'),
    [SETTINGS_PATH],
  );

export const useRotateIntakeCode = () =>
  useSettingsMutation(
    () => request<IntakeCodeRotated>('post', '/api/v1/company/intake-code/rotate'),
    [SETTINGS_PATH],
  );

export const useChangeRole = () =>
  useSettingsMutation(
    ({ id, role }: { id: string; role: CompanyRole }) =>
      request<Person>('patch', `${PEOPLE_PATH}/${encodeURIComponent(id)}`, { data: { role } }),
    [PEOPLE_PATH],
  );

export const useInvite = () =>
  useSettingsMutation(
    (body: { email: string; role: InvitableRole }) =>
      request<{ id: string }>('post', INVITATIONS_PATH, { data: body }),
    [INVITATIONS_PATH],
  );

export const useRevokeInvitation = () =>
  useSettingsMutation(
    (id: string) => request<void>('delete', `/api/v1/company/pending-invitations/${encodeURIComponent(id)}`),
    [INVITATIONS_PATH],
  );

export const useClaimDomain = () =>
  useSettingsMutation(
    (body: { domain: string; email: string }) =>
      request<{ id: string }>('post', DOMAINS_PATH, { data: body }),
    [DOMAINS_PATH],
  );

export const useRemoveDomain = () =>
  useSettingsMutation(
    (domain: string) => request<void>('delete', `${DOMAINS_PATH}/${encodeURIComponent(domain)}`),
    [DOMAINS_PATH],
  );

const verifyPath = (token: string) => `${DOMAINS_PATH}/verify/${encodeURIComponent(token)}`;
export interface DomainClaimInfo {
  domain: string;
  company: { name: string };
}
export const useDomainClaim = (token: string) =>
  useQuery({
    queryKey: queryKey(`${DOMAINS_PATH}/verify/{token}`, { params: { token } }),
    queryFn: ({ signal }) => request<DomainClaimInfo>('get', verifyPath(token), { signal }),
    retry: false,
  });
export const useVerifyDomain = (token: string) =>
  useMutation({ mutationFn: () => request<DomainClaimInfo>('post', verifyPath(token)) });
