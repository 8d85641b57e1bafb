import type { ManagerCase, StatusChangeBody } from '@ansim/shared/contract/manager';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fillPath, queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';
import { MANAGER_CASE_PATH, managerCaseKey } from './get-case';
import { MANAGER_REPORTS_PATH } from './list-reports';
import { REPORT_STATS_PATH } from './report-stats';

export type { StatusChangeBody };

export const changeStatus = (id: string, body: StatusChangeBody) =>
  request<ManagerCase>('patch', fillPath(MANAGER_CASE_PATH, { id }), { data: body });

export function useChangeStatus(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StatusChangeBody) => changeStatus(id, body),
    onSuccess: (updated) => {
      queryClient.setQueryData(managerCaseKey(id), updated);
      // Status and deadlines show in the list and count in the statistics.
      void queryClient.invalidateQueries({ queryKey: queryKey(MANAGER_REPORTS_PATH) });
      void queryClient.invalidateQueries({ queryKey: queryKey(REPORT_STATS_PATH) });
    },
    // 409: someone else moved the case first; show what it is now.
    onError: () => queryClient.invalidateQueries({ queryKey: managerCaseKey(id) }),
  });
}
