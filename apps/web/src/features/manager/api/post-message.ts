import type { CaseMessage, ManagerCase } from '@ansim/shared/contract/manager';
import type { MessageBody } from '@ansim/shared/contract/report';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { managerCaseKey } from './get-case';

export type { MessageBody as ManagerMessageBody };

export const postManagerMessage = (id: string, message: MessageBody) =>
  request<CaseMessage[]>('post', `/api/v1/manager/report/${encodeURIComponent(id)}/messages`, {
    data: message,
  });

export function usePostManagerMessage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: MessageBody) => postManagerMessage(id, message),
    onSuccess: (messages) => {
      queryClient.setQueryData<ManagerCase>(managerCaseKey(id), (current) =>
        current ? { ...current, messages } : current,
      );
      // A message acknowledges the case, and one marked as feedback meets the feedback deadline.
      void queryClient.invalidateQueries({ queryKey: managerCaseKey(id) });
    },
  });
}
