import type { ReportForm } from '@ansim/shared/report-form';
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { draftStorage } from '../../lib/draft-storage';
import { emptyReportForm } from '../report-wizard/report-form';
import type { InvitationKind } from './api/invitation-api';

/**
 * The invitee's draft, kept per field in localStorage like the reporter's (spec §3, §5) but under its own
 * prefix per kind, so a statement never mixes with a report draft on the same browser, and the reporter's
 * logout (which clears `ansim.reportDraft.*`) does not touch it.
 */
export const STATEMENT_DRAFT_PREFIX = 'ansim.invitationDraft.';

/** The form fields each kind of invitee writes; the server keeps only these (and ignores the rest). */
export const STATEMENT_FIELDS = {
  defendant: [
    'reporter_name',
    'reporter_role',
    'reporter_department',
    'reporter_tenure',
    'defendant_truth',
    'defendant_true_part',
    'defendant_false_part',
    'defendant_opinion',
    'defendant_extra_info',
    'defendant_evidences',
    'defendant_witnesses',
  ],
  reference: ['reference_witnessed', 'reference_memory', 'reference_opinion', 'reference_evidences'],
} as const satisfies Record<InvitationKind, readonly (keyof ReportForm)[]>;

export type StatementField = (typeof STATEMENT_FIELDS)[InvitationKind][number];

const STEP_KEY = 'step';

/** One kind's draft keys: `ansim.invitationDraft.<kind>.<field>`. */
const storageOf = (kind: InvitationKind) => draftStorage(`${STATEMENT_DRAFT_PREFIX}${kind}.`);
const read = (kind: InvitationKind, name: string) => storageOf(kind).read<unknown>(name);
const write = (kind: InvitationKind, name: string, value: unknown) => storageOf(kind).write(name, value);

/** Removes every stored key of one kind's draft. */
export const clearStatementDraft = (kind: InvitationKind): void => storageOf(kind).clear();

function hasShapeOf(value: unknown, initial: unknown): boolean {
  // The nullable evidence lists start as null and become lists of file ids.
  if (initial === null) return value === null || Array.isArray(value);
  if (Array.isArray(initial)) return Array.isArray(value);
  return typeof value === typeof initial;
}

/** The stored draft of one kind: a full report form with `report_type` set, only that kind's fields read back. */
export function loadStatementDraft(kind: InvitationKind): ReportForm {
  const form = { ...emptyReportForm(), report_type: kind } as ReportForm;
  const target = form as unknown as Record<string, unknown>;
  const empty = emptyReportForm() as unknown as Record<string, unknown>;
  for (const field of STATEMENT_FIELDS[kind]) {
    const stored = read(kind, field);
    // A value of another shape (an older version, a hand edit) is dropped rather than sent to the server.
    if (stored !== undefined && hasShapeOf(stored, empty[field])) target[field] = stored;
  }
  const lastEdit = read(kind, 'last_edit');
  if (typeof lastEdit === 'string') form.last_edit = lastEdit;
  return form;
}

function loadStep(kind: InvitationKind): number {
  const stored = read(kind, STEP_KEY);
  return typeof stored === 'number' && Number.isInteger(stored) && stored >= 0 ? stored : 0;
}

export interface StatementDraftState {
  kind: InvitationKind;
  form: ReportForm;
  /** The current step; the number of steps is the review screen. Persisted so a reload resumes there. */
  step: number;
  /** Per-field messages of the server's last 400, keyed by dotted path. Not persisted. */
  serverErrors: Record<string, string>;
  setField: <K extends StatementField>(field: K, value: ReportForm[K]) => void;
  setStep: (step: number) => void;
  setServerErrors: (errors: Record<string, string>) => void;
  /** After the statement was received: nothing of it stays on this device. */
  clear: () => void;
}

function withoutErrorsFor(errors: Record<string, string>, field: string): Record<string, string> {
  const entries = Object.entries(errors).filter(([path]) => path !== field && !path.startsWith(`${field}.`));
  return entries.length === Object.keys(errors).length ? errors : Object.fromEntries(entries);
}

export function createStatementDraftStore(
  kind: InvitationKind,
): UseBoundStore<StoreApi<StatementDraftState>> {
  return create<StatementDraftState>((set) => ({
    kind,
    form: loadStatementDraft(kind),
    step: loadStep(kind),
    serverErrors: {},
    setField: (field, value) => {
      const lastEdit = new Date().toISOString();
      write(kind, field, value);
      write(kind, 'last_edit', lastEdit);
      set((state) => ({
        form: { ...state.form, [field]: value, last_edit: lastEdit },
        serverErrors: withoutErrorsFor(state.serverErrors, field),
      }));
    },
    setStep: (step) => {
      write(kind, STEP_KEY, step);
      set({ step });
    },
    setServerErrors: (serverErrors) => set({ serverErrors }),
    clear: () => {
      clearStatementDraft(kind);
      set({ form: { ...emptyReportForm(), report_type: kind }, step: 0, serverErrors: {} });
    },
  }));
}

/** One store per kind, created on first use (a tab may hold a defendant and a reference link at once). */
const stores = new Map<InvitationKind, UseBoundStore<StoreApi<StatementDraftState>>>();

export function statementDraftStore(kind: InvitationKind): UseBoundStore<StoreApi<StatementDraftState>> {
  let store = stores.get(kind);
  if (!store) {
    store = createStatementDraftStore(kind);
    stores.set(kind, store);
  }
  return store;
}
