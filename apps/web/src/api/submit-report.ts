import type { SubmittedReport } from '@ansim/shared/contract/report';
import { request } from '../lib/request';
import type { ReportForm } from '../stores/report-form';
import { draftHeaders } from './draft-headers';

export const REPORTS_PATH = '/api/v1/report/';

/** An anonymous submission also answers with the receipt, shown to the reporter once (decision 0005). */
export type { SubmittedReport };

/**
 * POST /api/v1/report/ with the whole form; the draft's key makes a retry return the same report. An
 * anonymous draft sends its intake token and, beside the form, the optional private contact address.
 */
export const submitReport = (form: ReportForm, idempotencyKey: string, contactEmail = '') =>
  request<SubmittedReport>('post', REPORTS_PATH, {
    data: contactEmail && form.report_type === 'anonym' ? { ...form, contact_email: contactEmail } : form,
    headers: { 'Idempotency-Key': idempotencyKey, ...draftHeaders() },
  });
