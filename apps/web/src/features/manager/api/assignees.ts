import type { CaseExclusion, CaseHandler } from '@ansim/shared/contract/manager';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { managerCaseKey } from './get-case';

const casePath = (id: string) => `/api/v1/manager/report/${encodeURIComponent(id)}`;

export const setAssignees = (id: string, userIds: string[]) =>
  request<CaseHandler[]>('put', `${casePath(id)}/assignees`, { data: { user_ids: userIds } });

export const addExclusion = (id: string, userId: string) =>
  request<CaseExclusion[]>('post', `${casePath(id)}/exclusions`, { data: { user_id: userId } });

/** Replaces who handles the case; the case (assignees, audit) is read again. */
export function useSetAssignees(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userIds: string[]) => setAssignees(id, userIds),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: managerCaseKey(id) }),
  });
}

/** Keeps a colleague away from the case (conflict of interest); they lose any assignment to it too. */
export function useAddExclusion(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => addExclusion(id, userId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: managerCaseKey(id) }),
  });
}
