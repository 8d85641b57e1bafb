import { useQueryClient } from '@tanstack/react-query';
import { type LiveState, useEventStream } from '../../../lib/use-event-stream';
import { reportQuery } from './get-report';
import { messagesQuery } from './report-messages';

/**
 * Keeps the reporter's case page current, for an account and a receipt session alike: the stream only says
 * that the case changed (never what), and the report and its messages are then read again through their
 * own routes. The first event arrives on connecting, so a change made while the page was loading is caught.
 */
export function useReportEvents(id: string): LiveState {
  const queryClient = useQueryClient();
  return useEventStream<{ type: 'changed' }>(`/api/v1/report/${encodeURIComponent(id)}/events`, () => {
    void queryClient.invalidateQueries({ queryKey: reportQuery(id).queryKey });
    void queryClient.invalidateQueries({ queryKey: messagesQuery(id).queryKey });
  });
}
