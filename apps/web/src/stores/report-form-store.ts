import { REPORT_TYPES, type ReportType, STEPS_BY_TYPE } from '@ansim/shared/constants';
import { DRAFT_PREFIX } from '../lib/draft-storage';
import { createDraftStore } from './draft-store';
import { emptyReportForm, REPORT_FORM_FIELDS, type ReportField, type ReportForm } from './report-form';

export { IDEMPOTENCY_KEY } from './draft-store';

/** Never collected for an anonymous report (the shared REPORTER_IDENTITY_FIELDS, without importing zod). */
const IDENTITY_FIELDS = ['reporter_name', 'reporter_role', 'reporter_department', 'reporter_tenure'] as const;

/** R-WIZ-1: report_type must be one of the allowed values or empty; anything else read back is dropped. */
export function isValidReportType(value: unknown): value is ReportType | '' {
  return value === '' || (REPORT_TYPES as readonly unknown[]).includes(value);
}

const REPORT_FIELDS = REPORT_FORM_FIELDS.filter((field): field is ReportField => field !== 'last_edit');

/**
 * The reporter's wizard draft under `ansim.reportDraft.*`. reset keeps report_type (R-WIZ-5); clear, after a
 * submission, removes it with the rest.
 */
export const useReportForm = createDraftStore<
  ReportForm,
  ReportField,
  { setReportType: (type: ReportType) => void }
>(
  {
    prefix: DRAFT_PREFIX,
    fields: REPORT_FIELDS,
    initial: emptyReportForm,
    accepts: (field, value) => field !== 'report_type' || isValidReportType(value),
    keepOnReset: ['report_type'],
  },
  (_set, get) => ({
    setReportType: (type) => {
      if (get().form.report_type !== type) get().setStep(0);
      get().setField('report_type', type);
      // Switching a draft to anonymous must not carry the name typed for a named report along with it.
      if (type === 'anonym') {
        for (const field of IDENTITY_FIELDS) if (get().form[field]) get().setField(field, '');
      }
    },
  }),
);

export const stepsFor = (type: ReportType | '') => (type ? STEPS_BY_TYPE[type] : []);
