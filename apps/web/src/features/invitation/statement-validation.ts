import { STEPS_BY_TYPE, type StepKey } from '@ansim/shared/constants';
import { FIELD_MESSAGES_KO } from '@ansim/shared/messages.ko';
import type { ReportForm } from '@ansim/shared/report-form';
import { STEP_FIELDS, stepErrors } from '@ansim/shared/report-form-rules';
import type { InvitationKind } from './api/invitation-api';

export const statementSteps = (kind: InvitationKind): readonly StepKey[] => STEPS_BY_TYPE[kind];

/**
 * The messages of one step: the shared submission rules (the same the server applies), plus a name for every
 * witness the accused person adds — an entry without a name gives the manager no one to ask.
 */
export function statementStepErrors(form: ReportForm, step: StepKey): Record<string, string> {
  const errors = stepErrors(form, step);
  if (step === 'witnesses' && form.report_type === 'defendant') {
    form.defendant_witnesses.forEach((witness, index) => {
      if (!witness.name.trim()) errors[`defendant_witnesses.${index}.name`] ??= FIELD_MESSAGES_KO.required;
    });
  }
  return errors;
}

/** The first step (index) with a problem, for the review screen to send the invitee back to; null when none. */
export function firstInvalidStep(kind: InvitationKind, form: ReportForm): number | null {
  const index = statementSteps(kind).findIndex(
    (step) => Object.keys(statementStepErrors(form, step)).length > 0,
  );
  return index >= 0 ? index : null;
}

/** The step that edits a field path of a server 400 (e.g. `defendant_opinion`), or null. */
export function stepOfPath(kind: InvitationKind, path: string): number | null {
  const head = path.split('.')[0]!;
  const index = statementSteps(kind).findIndex((step) =>
    (STEP_FIELDS[step] as readonly string[]).includes(head),
  );
  return index >= 0 ? index : null;
}
