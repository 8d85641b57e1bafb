import { REPORT_TYPES, type ReportType, STEPS_BY_TYPE } from '@ansim/shared/constants';
import { create } from 'zustand';
import { clearDrafts, readDraftField, removeDraftField, writeDraftField } from '../lib/draft-storage';
import { emptyReportForm, REPORT_FORM_FIELDS, type ReportField, type ReportForm } from './report-form';

const STEP_KEY = 'step';
/** Kept with the draft so a retried submission of the same draft can never file a second report. */
export const IDEMPOTENCY_KEY = 'idempotency_key';

/** Never collected for an anonymous report (the shared REPORTER_IDENTITY_FIELDS, without importing zod). */
const IDENTITY_FIELDS = ['reporter_name', 'reporter_role', 'reporter_department', 'reporter_tenure'] as const;

/** Spec §5: report_type must be one of the allowed values or empty; anything else read back is dropped. */
export function isValidReportType(value: unknown): value is ReportType | '' {
  return value === '' || (REPORT_TYPES as readonly unknown[]).includes(value);
}

function loadDraft(): ReportForm {
  const form = emptyReportForm();
  const target = form as unknown as Record<string, unknown>;
  for (const field of REPORT_FORM_FIELDS) {
    const stored = readDraftField<unknown>(field);
    if (stored === undefined) continue;
    if (field === 'report_type' && !isValidReportType(stored)) continue;
    target[field] = stored;
  }
  return form;
}

function loadStep(): number {
  const stored = readDraftField<unknown>(STEP_KEY);
  return typeof stored === 'number' && Number.isInteger(stored) && stored >= 0 ? stored : 0;
}

function loadIdempotencyKey(): string | null {
  const stored = readDraftField<unknown>(IDEMPOTENCY_KEY);
  return typeof stored === 'string' && stored ? stored : null;
}

/** Drops the server's messages for a field (and its nested paths) once the reporter edits that field. */
function withoutErrorsFor(errors: Record<string, string>, field: string): Record<string, string> {
  const entries = Object.entries(errors).filter(([path]) => path !== field && !path.startsWith(`${field}.`));
  return entries.length === Object.keys(errors).length ? errors : Object.fromEntries(entries);
}

interface ReportFormState {
  form: ReportForm;
  /** The current wizard step; `steps.length` is the review screen. Persisted so a reload resumes there. */
  step: number;
  idempotencyKey: string | null;
  /** Spec §4: set while a submission is in flight; disables the submit button. Not persisted. */
  isSubmitting: boolean;
  /** Per-field messages of the last 400 VALIDATION_ERROR, keyed by dotted path. Not persisted. */
  serverErrors: Record<string, string>;
  /** Set by a successful submission; the wizard clears the draft once its route has been left. */
  isSubmitted: boolean;
  setField: <K extends ReportField>(field: K, value: ReportForm[K]) => void;
  setReportType: (type: ReportType) => void;
  setStep: (step: number) => void;
  /** The draft's Idempotency-Key, created on first use and kept until reset or submission. */
  ensureIdempotencyKey: () => string;
  setSubmitting: (isSubmitting: boolean) => void;
  setServerErrors: (errors: Record<string, string>) => void;
  markSubmitted: () => void;
  /** Spec §4: clears every field but keeps report_type, and returns to the first step. */
  reset: () => void;
  /** After a successful submission: the whole draft, report_type included, leaves this device. */
  clear: () => void;
  /** Re-reads storage, e.g. after logout removed the draft keys. */
  reload: () => void;
}

export const useReportForm = create<ReportFormState>((set, get) => ({
  form: loadDraft(),
  step: loadStep(),
  idempotencyKey: loadIdempotencyKey(),
  isSubmitting: false,
  serverErrors: {},
  isSubmitted: false,
  setField: (field, value) => {
    const lastEdit = new Date().toISOString();
    writeDraftField(field, value);
    writeDraftField('last_edit', lastEdit);
    set((state) => ({
      form: { ...state.form, [field]: value, last_edit: lastEdit },
      serverErrors: withoutErrorsFor(state.serverErrors, field),
    }));
  },
  setReportType: (type) => {
    if (get().form.report_type !== type) get().setStep(0);
    get().setField('report_type', type);
    // Switching a draft to anonymous must not carry the name typed for a named report along with it.
    if (type === 'anonym') {
      for (const field of IDENTITY_FIELDS) if (get().form[field]) get().setField(field, '');
    }
  },
  setStep: (step) => {
    writeDraftField(STEP_KEY, step);
    set({ step });
  },
  ensureIdempotencyKey: () => {
    const existing = get().idempotencyKey;
    if (existing) return existing;
    const key = crypto.randomUUID();
    writeDraftField(IDEMPOTENCY_KEY, key);
    set({ idempotencyKey: key });
    return key;
  },
  setSubmitting: (isSubmitting) => set({ isSubmitting }),
  setServerErrors: (serverErrors) => set({ serverErrors }),
  markSubmitted: () => set({ isSubmitted: true }),
  reset: () => {
    const { report_type } = get().form;
    const fresh = emptyReportForm();
    const lastEdit = new Date().toISOString();
    for (const field of REPORT_FORM_FIELDS) {
      if (field === 'report_type' || field === 'last_edit') continue;
      writeDraftField(field, fresh[field]);
    }
    writeDraftField('last_edit', lastEdit);
    writeDraftField(STEP_KEY, 0);
    removeDraftField(IDEMPOTENCY_KEY);
    set({
      form: { ...fresh, report_type, last_edit: lastEdit },
      step: 0,
      idempotencyKey: null,
      serverErrors: {},
    });
  },
  clear: () => {
    clearDrafts();
    set({ form: emptyReportForm(), step: 0, idempotencyKey: null, serverErrors: {}, isSubmitted: false });
  },
  reload: () =>
    set({ form: loadDraft(), step: loadStep(), idempotencyKey: loadIdempotencyKey(), serverErrors: {} }),
}));

export const stepsFor = (type: ReportType | '') => (type ? STEPS_BY_TYPE[type] : []);
