import type { ReportType, StepKey } from '@ansim/shared/constants';
import { reportSubmissionSchema, STEP_FIELDS } from '@ansim/shared/report-form';
import type { ReportForm } from '../../stores/report-form';
import { stepsFor } from '../../stores/report-form-store';

/** Every submission error of the draft, keyed by dotted path, in the form's field order. */
export function formErrors(form: ReportForm): Record<string, string> {
  const result = reportSubmissionSchema.safeParse(form);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}

/**
 * The wizard step holding the first of the given error paths (a server 400's details or the local check),
 * so the reporter is taken to where the problem is; null when no step of this type edits any of them.
 */
export function stepOfFirstError(type: ReportType | '', paths: readonly string[]): number | null {
  const steps = stepsFor(type);
  for (const path of paths) {
    const head = path.split('.')[0]!;
    const index = steps.findIndex((step: StepKey) => (STEP_FIELDS[step] as readonly string[]).includes(head));
    if (index >= 0) return index;
  }
  return null;
}
