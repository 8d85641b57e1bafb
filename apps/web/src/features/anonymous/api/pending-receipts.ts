import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

const PENDING_PATH = '/api/v1/user/pending-receipts';

export interface PendingReceipt {
  receipt: string;
  case_number?: string;
}

/** Accepts a bare list or a wrapped one, and a receipt given as a string or as `{receipt}`. */
export function toPendingReceipts(body: unknown): PendingReceipt[] {
  const list = Array.isArray(body)
    ? body
    : ((body as { receipts?: unknown; results?: unknown } | null)?.receipts ??
      (body as { results?: unknown } | null)?.results ??
      []);
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown) => {
    if (typeof item === 'string') return [{ receipt: item }];
    const { receipt, case_number } = (item ?? {}) as { receipt?: unknown; case_number?: unknown };
    if (typeof receipt !== 'string') return [];
    return [typeof case_number === 'string' ? { receipt, case_number } : { receipt }];
  });
}

const pendingKey = queryKey(PENDING_PATH);

/**
 * Receipts issued when an old anonymous report was cut loose from this account (decision 0005): shown once,
 * until the member says they have kept them.
 */
export const usePendingReceipts = (enabled: boolean) =>
  useQuery({
    queryKey: pendingKey,
    queryFn: async ({ signal }) => toPendingReceipts(await request<unknown>('get', PENDING_PATH, { signal })),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useDismissPendingReceipts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request<void>('delete', PENDING_PATH),
    onSuccess: () => queryClient.setQueryData<PendingReceipt[]>(pendingKey, []),
  });
}
