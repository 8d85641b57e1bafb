import type {
  CaseInvitation,
  InvitationTarget,
  ManagerCase,
  SendInvitationsBody,
} from '@ansim/shared/contract/manager';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { managerCaseKey } from './get-case';

const invitationsPath = (id: string) => `/api/v1/manager/report/${encodeURIComponent(id)}/invitations`;

export type { InvitationTarget, SendInvitationsBody };

export const sendInvitations = (id: string, body: SendInvitationsBody) =>
  request<CaseInvitation[]>('post', invitationsPath(id), { data: body });

export const resendInvitation = (id: string, invitationId: string) =>
  request<CaseInvitation[]>('post', `${invitationsPath(id)}/${encodeURIComponent(invitationId)}/resend`);

export const revokeInvitation = (id: string, invitationId: string) =>
  request<CaseInvitation[]>('post', `${invitationsPath(id)}/${encodeURIComponent(invitationId)}/revoke`);

function useInvitationMutation<V>(id: string, mutationFn: (variables: V) => Promise<CaseInvitation[]>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (invitations) => {
      queryClient.setQueryData<ManagerCase>(managerCaseKey(id), (current) =>
        current ? { ...current, invitations } : current,
      );
      // Sending also stamps *_email_sent_at in the form and adds audit rows.
      void queryClient.invalidateQueries({ queryKey: managerCaseKey(id) });
    },
  });
}

export const useSendInvitations = (id: string) =>
  useInvitationMutation(id, (body: SendInvitationsBody) => sendInvitations(id, body));
export const useResendInvitation = (id: string) =>
  useInvitationMutation(id, (invitationId: string) => resendInvitation(id, invitationId));
export const useRevokeInvitation = (id: string) =>
  useInvitationMutation(id, (invitationId: string) => revokeInvitation(id, invitationId));
