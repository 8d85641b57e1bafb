import type { StoreApi, UseBoundStore } from 'zustand';
import { draftStorage } from '../../lib/draft-storage';
import {
  createDraftStore,
  type DraftState,
  type DraftStoreOptions,
  loadDraftForm,
} from '../../stores/draft-store';
import { emptyReportForm, type ReportForm } from '../../stores/report-form';
import type { InvitationKind } from './api/invitation-api';

/**
 * The invitee's draft, kept per field in localStorage like the reporter's (R-WIZ-5, R-INV-4) but under its own
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

const EMPTY_FORM = emptyReportForm();

function hasShapeOf(value: unknown, initial: unknown): boolean {
  // The nullable evidence lists start as null and become lists of file ids.
  if (initial === null) return value === null || Array.isArray(value);
  if (Array.isArray(initial)) return Array.isArray(value);
  return typeof value === typeof initial;
}

/** One kind's draft: `ansim.invitationDraft.<kind>.<field>`, a full report form with `report_type` set. */
function draftOptions(kind: InvitationKind): DraftStoreOptions<ReportForm, StatementField> {
  return {
    prefix: `${STATEMENT_DRAFT_PREFIX}${kind}.`,
    fields: STATEMENT_FIELDS[kind],
    initial: () => ({ ...emptyReportForm(), report_type: kind }),
    // A value of another shape (an older version, a hand edit) is dropped rather than sent to the server.
    accepts: (field, value) => hasShapeOf(value, EMPTY_FORM[field]),
  };
}

/** Removes every stored key of one kind's draft. */
export const clearStatementDraft = (kind: InvitationKind): void =>
  draftStorage(draftOptions(kind).prefix).clear();

/** The stored draft of one kind: a full report form with `report_type` set, only that kind's fields read back. */
export const loadStatementDraft = (kind: InvitationKind): ReportForm => loadDraftForm(draftOptions(kind));

export type StatementDraftState = DraftState<ReportForm, StatementField> & { kind: InvitationKind };

export function createStatementDraftStore(
  kind: InvitationKind,
): UseBoundStore<StoreApi<StatementDraftState>> {
  return createDraftStore(draftOptions(kind), () => ({ kind }));
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
