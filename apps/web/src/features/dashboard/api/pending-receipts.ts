import type { PendingReceipt } from '@ansim/shared/contract/user';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

const PENDING_PATH = '/api/v1/user/pending-receipts';

export type { PendingReceipt };

const pendingKey = queryKey(PENDING_PATH);

/**
 * Receipts issued when an old anonymous report was cut loose from this account (decision 0005): shown once,
 * until the member says they have kept them.
 */
export const usePendingReceipts = (enabled: boolean) =>
  useQuery({
    queryKey: pendingKey,
    queryFn: ({ signal }) => request<PendingReceipt[]>('get', PENDING_PATH, { signal }),
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
