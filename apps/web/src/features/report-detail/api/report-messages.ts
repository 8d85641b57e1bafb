import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fillPath, queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

export interface ReportMessage {
  id: string;
  author_kind: 'reporter' | 'manager';
  author_name: string;
  body: string;
  created_at: string;
}

const MESSAGES_PATH = '/api/v1/report/{id}/messages';

export const messagesQuery = (id: string) => ({
  queryKey: queryKey(MESSAGES_PATH, { params: { id } }),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    request<ReportMessage[]>('get', fillPath(MESSAGES_PATH, { id }), { signal }),
});

/** Managers answer at any time; the page's case stream (useReportEvents) has the thread read again. */
export const useReportMessages = (id: string) =>
  useQuery({ ...messagesQuery(id), refetchOnWindowFocus: true });

/** POST answers with the whole thread, which replaces the cached one. */
export function usePostMessage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) =>
      request<ReportMessage[]>('post', fillPath(MESSAGES_PATH, { id }), { data: { body } }),
    onSuccess: (thread) => queryClient.setQueryData(messagesQuery(id).queryKey, thread),
  });
}
