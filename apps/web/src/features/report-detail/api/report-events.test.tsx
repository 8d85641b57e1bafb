import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import type { StreamOptions } from '../../../lib/stream';
import { reportQuery } from './get-report';
import { useReportEvents } from './report-events';
import { messagesQuery } from './report-messages';

const stream = vi.fn();
vi.mock('../../../lib/stream', async (original) => ({
  ...(await original<typeof import('../../../lib/stream')>()),
  stream: (...args: unknown[]) => stream(...args),
}));

afterEach(() => {
  cleanup();
  stream.mockReset();
});

function renderEvents(id: string) {
  const queryClient = createQueryClient();
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  const hook = renderHook(() => useReportEvents(id), {
    wrapper: ({ children }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>,
  });
  return { hook, invalidate };
}

describe('useReportEvents', () => {
  it('follows the reporter’s case stream and has the report and its messages read again on each event', async () => {
    let options: StreamOptions<unknown> | undefined;
    stream.mockImplementation((_url: string, given: StreamOptions<unknown>) => {
      options = given;
      return new Promise(() => undefined);
    });
    const { hook, invalidate } = renderEvents('case-1');
    await waitFor(() => expect(options).toBeDefined());
    expect(stream.mock.calls[0]![0]).toBe('/api/v1/report/case-1/events');
    expect(invalidate).not.toHaveBeenCalled();

    act(() => options!.onMessage({ type: 'changed' }));
    expect(hook.result.current).toBe('live');
    const keys = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(keys).toEqual([reportQuery('case-1').queryKey, messagesQuery('case-1').queryKey]);
  });

  it('stops for good when the stream is refused (a receipt session that ended, say)', async () => {
    const { StreamError } = await import('../../../lib/stream');
    stream.mockRejectedValue(new StreamError(401, ''));
    const { hook } = renderEvents('case-2');
    await waitFor(() => expect(hook.result.current).toBe('stopped'));
    expect(stream).toHaveBeenCalledTimes(1);
  });
});
