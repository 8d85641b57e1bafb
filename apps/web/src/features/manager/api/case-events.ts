import type { CaseMessage, ManagerCase } from '@ansim/shared/contract/manager';
import { useQueryClient } from '@tanstack/react-query';
import { type LiveState, useEventStream } from '../../../lib/use-event-stream';
import { mergeCaseSnapshot, newReporterMessages } from '../lib/case-state';
import { managerCaseKey } from './get-case';

export type { LiveState };

/**
 * Keeps the cached case in step with GET …/events (the streaming helper, R-WEB-8): each snapshot replaces the
 * cache, so a reporter's message or an invitee's statement appears without a reload.
 */
export function useCaseEvents(id: string, onReporterMessage?: (messages: CaseMessage[]) => void): LiveState {
  const queryClient = useQueryClient();
  return useEventStream<ManagerCase>(
    `/api/v1/manager/report/${encodeURIComponent(id)}/events`,
    (snapshot) => {
      const key = managerCaseKey(id);
      const previous = queryClient.getQueryData<ManagerCase>(key);
      const arrived = newReporterMessages(previous, snapshot);
      queryClient.setQueryData<ManagerCase>(key, (current) => mergeCaseSnapshot(current, snapshot));
      if (arrived.length > 0) onReporterMessage?.(arrived);
    },
  );
}
