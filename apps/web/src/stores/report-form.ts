import type { ReportForm } from '@ansim/shared/report-form';

/** The report draft of R-WIZ-4 is the shared zod schema's type: one definition for wizard, API and tests. */
export type { ReportForm, ReportFormField, Witness } from '@ansim/shared/report-form';

export type ReportField = Exclude<keyof ReportForm, 'last_edit'>;

/**
 * Defaults of R-WIZ-4: strings empty, lists empty, nullable fields null. Written out rather than taken from
 * `reportFormSchema.parse({})` because the router guard reads this store on every page, the landing page
 * included, and the schema would pull zod into the initial JavaScript. The type makes a missing or mistyped
 * field a compile error, and report-form.test.ts checks the values against the schema's own defaults.
 */
export function emptyReportForm(): ReportForm {
  return {
    report_type: '',
    reporter_type: '',
    reporter_name: '',
    reporter_role: '',
    reporter_department: '',
    reporter_tenure: '',
    perpetrator_name: '',
    perpetrator_role: '',
    perpetrator_department: '',
    perpetrator_tenure: '',
    relationship: '',
    acts: [],
    harms: [],
    wishes: [],
    wish_etc: '',
    concerns: [],
    extra_info: '',
    witnesses: [],
    protection_requests: [],
    protection_etc: '',
    perpetrator_email: null,
    perpetrator_email_sent_at: null,
    defendant_truth: '',
    defendant_true_part: '',
    defendant_false_part: '',
    defendant_opinion: '',
    defendant_extra_info: '',
    defendant_evidences: null,
    defendant_witnesses: [],
    reference_witnessed: '',
    reference_memory: '',
    reference_opinion: '',
    reference_evidences: null,
    last_edit: null,
  };
}

export const REPORT_FORM_FIELDS = Object.keys(emptyReportForm()) as (keyof ReportForm)[];

/** Every evidence file id the draft cites, in form order. */
export function evidenceIds(form: Pick<ReportForm, 'acts' | 'harms'>): string[] {
  return [...form.acts, ...form.harms].flatMap((item) => item.evidences ?? []);
}
