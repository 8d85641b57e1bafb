import { env } from '../config/env';

/** The SSE event terminator; chunks are split on it (docs/requirements.md R-WEB-8). */
export const EVENT_END = '\n\n';

export class StreamError extends Error {
  override readonly name = 'StreamError';
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super(`Stream request failed with status ${status}${text ? `: ${text}` : ''}`);
  }
}

export interface StreamOptions<T> {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Called with the newest complete event each time a chunk completes at least one. */
  onMessage: (message: T) => void;
  fetchImpl?: typeof fetch;
  baseUrl?: string;
}

/** Reads the JSON of one event, accepting both raw JSON and `data: …` lines; comments yield nothing. */
export function parseEventPiece<T>(piece: string): T | undefined {
  const lines = piece.split('\n');
  const dataLines = lines
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''));
  const text = dataLines.length > 0 ? dataLines.join('\n') : piece.startsWith(':') ? '' : piece;
  if (!text.trim()) return undefined;
  return JSON.parse(text) as T;
}

/**
 * Opens an event stream and reports its latest state. The buffer is split on the end marker: every piece but
 * the last is complete, and the second-to-last is the newest complete one — this endpoint sends whole
 * snapshots, so older pieces of the same chunk are superseded and skipped. The last piece is kept as the
 * start of the next event. Resolves when the server closes the stream or the signal aborts it.
 */
export async function stream<T>(url: string, options: StreamOptions<T>): Promise<void> {
  const doFetch = options.fetchImpl ?? fetch;
  const headers: Record<string, string> = { Accept: 'text/event-stream', ...options.headers };
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await doFetch(`${options.baseUrl ?? env.apiBase}${url}`, {
    method: (options.method ?? 'GET').toUpperCase(),
    headers,
    body,
    credentials: 'include',
    signal: options.signal,
  });
  if (!response.ok) {
    throw new StreamError(response.status, await response.text().catch(() => ''));
  }
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const onAbort = () => {
    reader.cancel().catch(() => undefined);
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let buffer = '';
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
      const pieces = buffer.split(EVENT_END);
      if (pieces.length < 2) continue;
      buffer = pieces.pop()!;
      // A keep-alive comment may close the chunk; the newest piece that carries data wins.
      for (let i = pieces.length - 1; i >= 0; i--) {
        const message = parseEventPiece<T>(pieces[i]!);
        if (message !== undefined) {
          options.onMessage(message);
          break;
        }
      }
    }
  } catch (error) {
    if (options.signal?.aborted) return;
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}
