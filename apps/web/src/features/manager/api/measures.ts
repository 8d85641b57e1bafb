import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { managerCaseKey } from './get-case';
import type { CaseMeasure, ManagerCase, MeasureDecision } from './types';

const measuresPath = (id: string) => `/api/v1/manager/report/${encodeURIComponent(id)}/measures`;

export interface MeasureCreateBody {
  measure: string;
  detail: string;
}

export interface MeasureUpdateBody {
  decision?: MeasureDecision;
  /** Required by the server when the decision is `refused` (art. 76-3: the refusal needs its reason). */
  reason?: string;
  reporter_consent?: boolean | null;
}

export const addMeasure = (id: string, body: MeasureCreateBody) =>
  request<{ id: string }>('post', measuresPath(id), { data: body });

export const updateMeasure = (id: string, measureId: string, body: MeasureUpdateBody) =>
  request<CaseMeasure[]>('patch', `${measuresPath(id)}/${encodeURIComponent(measureId)}`, { data: body });

export function useAddMeasure(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MeasureCreateBody) => addMeasure(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: managerCaseKey(id) }),
  });
}

export function useUpdateMeasure(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ measureId, ...body }: MeasureUpdateBody & { measureId: string }) =>
      updateMeasure(id, measureId, body),
    onSuccess: (measures) => {
      queryClient.setQueryData<ManagerCase>(managerCaseKey(id), (current) =>
        current ? { ...current, measures } : current,
      );
      // The audit log of the case gained a row.
      void queryClient.invalidateQueries({ queryKey: managerCaseKey(id) });
    },
  });
}
