import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { managerCaseKey } from './get-case';
import type { CaseMessage, ManagerCase } from './types';

export const postManagerMessage = (id: string, body: string) =>
  request<CaseMessage[]>('post', `/api/v1/manager/report/${encodeURIComponent(id)}/messages`, {
    data: { body },
  });

export function usePostManagerMessage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => postManagerMessage(id, body),
    onSuccess: (messages) => {
      queryClient.setQueryData<ManagerCase>(managerCaseKey(id), (current) =>
        current ? { ...current, messages } : current,
      );
      // The first message to the reporter also counts as feedback, which moves the deadline state.
      void queryClient.invalidateQueries({ queryKey: managerCaseKey(id) });
    },
  });
}
