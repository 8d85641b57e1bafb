import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { StreamError, stream } from '../../../lib/stream';
import { mergeCaseSnapshot, newReporterMessages } from '../lib/case-state';
import { managerCaseKey } from './get-case';
import type { CaseMessage, ManagerCase } from './types';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'stopped';

const RETRY_MS = [2_000, 5_000, 10_000, 30_000];

/**
 * Keeps the cached case in step with GET …/events (the spec's streaming helper): each snapshot replaces the
 * cache, so a reporter's message or an invitee's statement appears without a reload. A dropped stream is
 * reopened with back-off; 401/403/404 stop it (logged out, no longer a manager, case gone). Leaving the page
 * aborts the request.
 */
export function useCaseEvents(id: string, onReporterMessage?: (messages: CaseMessage[]) => void): LiveState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  // The latest callback, without reopening the stream when the caller re-renders with a new function.
  const onReporterMessageRef = useRef(onReporterMessage);
  useEffect(() => {
    onReporterMessageRef.current = onReporterMessage;
  });

  useEffect(() => {
    const controller = new AbortController();
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const connect = async () => {
      try {
        await stream<ManagerCase>(`/api/v1/manager/report/${encodeURIComponent(id)}/events`, {
          signal: controller.signal,
          onMessage: (snapshot) => {
            attempt = 0;
            setState('live');
            const key = managerCaseKey(id);
            const previous = queryClient.getQueryData<ManagerCase>(key);
            const arrived = newReporterMessages(previous, snapshot);
            queryClient.setQueryData<ManagerCase>(key, (current) => mergeCaseSnapshot(current, snapshot));
            if (arrived.length > 0) onReporterMessageRef.current?.(arrived);
          },
        });
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof StreamError && [401, 403, 404].includes(error.status)) {
          setState('stopped');
          return;
        }
      }
      if (controller.signal.aborted) return;
      setState('reconnecting');
      timer = setTimeout(connect, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
      attempt += 1;
    };
    void connect();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [id, queryClient]);

  return state;
}
