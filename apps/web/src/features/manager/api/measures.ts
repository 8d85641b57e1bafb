import type {
  CaseMeasure,
  ManagerCase,
  MeasureCreateBody,
  MeasureCreated,
  MeasureUpdateBody,
} from '@ansim/shared/contract/manager';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { managerCaseKey } from './get-case';

const measuresPath = (id: string) => `/api/v1/manager/report/${encodeURIComponent(id)}/measures`;

export type { MeasureCreateBody, MeasureUpdateBody };

export const addMeasure = (id: string, body: MeasureCreateBody) =>
  request<MeasureCreated>('post', measuresPath(id), { data: body });

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
