import { request } from '../../../lib/request';
import type { ReportForm } from '../report-form';

export const REPORTS_PATH = '/api/v1/report/';

/** POST /api/v1/report/ with the whole form; the draft's key makes a retry return the same report. */
export const submitReport = (form: ReportForm, idempotencyKey: string) =>
  request<{ id: string }>('post', REPORTS_PATH, {
    data: form,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
