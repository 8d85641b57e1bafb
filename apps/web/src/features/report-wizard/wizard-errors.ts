import type { ReportType, StepKey } from '@ansim/shared/constants';
import { formErrors, STEP_FIELDS } from '@ansim/shared/report-form-rules';
import { stepsFor } from '../../stores/report-form-store';

export { formErrors };

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
