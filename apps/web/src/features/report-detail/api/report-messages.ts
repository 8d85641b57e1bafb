import type { CaseMessage, MessageBody } from '@ansim/shared/contract/report';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fillPath, queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

export type { CaseMessage as ReportMessage };

const MESSAGES_PATH = '/api/v1/report/{id}/messages';

export const messagesQuery = (id: string) => ({
  queryKey: queryKey(MESSAGES_PATH, { params: { id } }),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    request<CaseMessage[]>('get', fillPath(MESSAGES_PATH, { id }), { signal }),
});

/** Managers answer at any time; the page's case stream (useReportEvents) has the thread read again. */
export const useReportMessages = (id: string) =>
  useQuery({ ...messagesQuery(id), refetchOnWindowFocus: true });

/** POST answers with the whole thread, which replaces the cached one. */
export function usePostMessage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: MessageBody) =>
      request<CaseMessage[]>('post', fillPath(MESSAGES_PATH, { id }), { data: message }),
    onSuccess: (thread) => queryClient.setQueryData(messagesQuery(id).queryKey, thread),
  });
}
