import type { AcceptCompanyInvitationBody, CompanyInvitationView } from '@ansim/shared/company-invitations';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { currentUserQuery } from '../../../components/header/use-current-user';
import { useLoginState } from '../../../lib/login-state';
import { fillPath, queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

const INVITATION_PATH = '/api/v1/company/invitations/{token}';

export const getCompanyInvitation = (token: string, signal?: AbortSignal) =>
  request<CompanyInvitationView>('get', fillPath(INVITATION_PATH, { token }), { signal });

export const companyInvitationQuery = (token: string) =>
  queryOptions({
    queryKey: queryKey(INVITATION_PATH, { params: { token } }),
    queryFn: ({ signal }) => getCompanyInvitation(token, signal),
    retry: false,
  });

export const useCompanyInvitation = (token: string) => useQuery(companyInvitationQuery(token));

export const acceptCompanyInvitation = (token: string, body: AcceptCompanyInvitationBody) =>
  request<{ expires: number; role: string }>('post', `${fillPath(INVITATION_PATH, { token })}/accept`, {
    data: body,
  });

/** Accepting logs the invitee in: the new session's expiry is stored like a login's, the user read again. */
export function useAcceptCompanyInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AcceptCompanyInvitationBody) => acceptCompanyInvitation(token, body),
    onSuccess: async (result) => {
      useLoginState.getState().setExpires(result.expires);
      await queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey });
    },
  });
}
