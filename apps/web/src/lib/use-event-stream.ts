import { useEffect, useRef, useState } from 'react';
import { StreamError, stream } from './stream';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'stopped';

const RETRY_MS = [2_000, 5_000, 10_000, 30_000];

/**
 * Follows an event stream for as long as the component is mounted: a dropped stream is reopened with
 * back-off; 401/403/404 stop it (logged out, access gone, case gone). Leaving the page aborts the request.
 */
export function useEventStream<T>(url: string, onMessage: (message: T) => void): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  // The latest callback, without reopening the stream when the caller re-renders with a new function.
  const onMessageRef = useRef(onMessage);
  useEffect(() => {
    onMessageRef.current = onMessage;
  });

  useEffect(() => {
    const controller = new AbortController();
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const connect = async () => {
      try {
        await stream<T>(url, {
          signal: controller.signal,
          onMessage: (message) => {
            attempt = 0;
            setState('live');
            onMessageRef.current(message);
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
  }, [url]);

  return state;
}
