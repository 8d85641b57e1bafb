import { describe, expect, it, vi } from 'vitest';
import { StreamError, stream } from './stream';

function chunkedResponse(
  chunks: string[],
  init: ResponseInit = {},
): { response: Response; cancelled: () => boolean } {
  const encoder = new TextEncoder();
  let index = 0;
  let wasCancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(encoder.encode(chunks[index++]!));
      else controller.close();
    },
    cancel() {
      wasCancelled = true;
    },
  });
  return { response: new Response(body, { status: 200, ...init }), cancelled: () => wasCancelled };
}

const fetchReturning = (response: Response) =>
  vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => response);

describe('stream', () => {
  it('asks for an event stream and reports each completed event, end markers split across chunks', async () => {
    const { response } = chunkedResponse([
      'data: {"status":"rec',
      'eived"}\n',
      '\n',
      'data: {"status":"investigating"}\n\nda',
      'ta: {"status":"closed"}\n\n',
    ]);
    const fetchImpl = fetchReturning(response);
    const messages: unknown[] = [];
    await stream<{ status: string }>('/api/v1/manager/report/1/events', {
      fetchImpl,
      baseUrl: '',
      onMessage: (message) => messages.push(message),
    });
    expect(fetchImpl.mock.calls[0]![1]).toMatchObject({
      headers: { Accept: 'text/event-stream' },
      credentials: 'include',
    });
    expect(messages).toEqual([{ status: 'received' }, { status: 'investigating' }, { status: 'closed' }]);
  });

  it('parses the second-to-last piece of a chunk holding several events', async () => {
    const { response } = chunkedResponse(['data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n"', ':3}\n\n']);
    const messages: unknown[] = [];
    await stream('/x', {
      fetchImpl: fetchReturning(response),
      baseUrl: '',
      onMessage: (m) => messages.push(m),
    });
    expect(messages).toEqual([{ n: 2 }, { n: 3 }]);
  });

  it('accepts raw JSON pieces without a data prefix and skips keep-alive comments', async () => {
    const { response } = chunkedResponse(['{"a":1}\n\n: ping\n\n', '{"a":2}\n\n']);
    const messages: unknown[] = [];
    await stream('/x', {
      fetchImpl: fetchReturning(response),
      baseUrl: '',
      onMessage: (m) => messages.push(m),
    });
    expect(messages).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('raises an error with status and text on a non-OK answer', async () => {
    const response = new Response('{"code":"FORBIDDEN"}', { status: 403 });
    const error = await stream('/x', {
      fetchImpl: fetchReturning(response),
      baseUrl: '',
      onMessage: () => {},
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamError);
    expect((error as StreamError).status).toBe(403);
    expect((error as StreamError).text).toBe('{"code":"FORBIDDEN"}');
  });

  it('stops reading and cancels the body when aborted', async () => {
    const encoder = new TextEncoder();
    let cancelled = false;
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(encoder.encode('data: {"n":1}\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const messages: unknown[] = [];
    const done = stream('/x', {
      fetchImpl: fetchReturning(new Response(body)),
      baseUrl: '',
      signal: controller.signal,
      onMessage: (m) => {
        messages.push(m);
        controller.abort();
      },
    });
    await expect(done).resolves.toBeUndefined();
    expect(messages).toEqual([{ n: 1 }]);
    expect(cancelled).toBe(true);
  });
});
