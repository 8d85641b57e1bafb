import type { MeasureOpinionBody } from '@ansim/shared/contract/report';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fillPath } from '../../../lib/query-keys';
import { request } from '../../../lib/request';
import { type ReportDetail, reportQuery } from './get-report';

const OPINION_PATH = '/api/v1/report/{id}/measures/{measureId}/opinion';

export type { MeasureOpinionBody as MeasureOpinion };

/** The reporter agrees to a measure or objects to it (근로기준법 제76조의3 ③④); answers with the measures. */
export function useMeasureOpinion(reportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ measureId, ...body }: MeasureOpinionBody & { measureId: string }) =>
      request<ReportDetail['measures']>('post', fillPath(OPINION_PATH, { id: reportId, measureId }), {
        data: body,
      }),
    onSuccess: (measures) =>
      queryClient.setQueryData<ReportDetail>(reportQuery(reportId).queryKey, (current) =>
        current ? { ...current, measures } : current,
      ),
  });
}
