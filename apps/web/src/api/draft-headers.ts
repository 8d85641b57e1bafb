import { isRequestError } from '../lib/request-error';
import { intakeHeaders, useIntakeToken } from '../stores/intake-token';
import { useReportForm } from '../stores/report-form-store';

/**
 * Headers for the draft's file and submission calls. An anonymous draft sends its intake token, so the
 * server owns its files by the intake session and never by the account that may also be logged in.
 */
export function draftHeaders(): Record<string, string> {
  return useReportForm.getState().form.report_type === 'anonym' ? intakeHeaders() : {};
}

/**
 * An intake route answering 410 INTAKE_EXPIRED, 401 (or 404, except when deleting a file that may simply be gone) means the
 * server no longer knows the token. Its files went with it, so the draft stops citing them; the wizard then
 * gets a new token and asks for the files again. Returns whether that is what happened.
 */
export function noteIntakeFailure(error: unknown, options: { isDelete?: boolean } = {}): boolean {
  const sentToken = Object.keys(draftHeaders()).length > 0;
  // Once submitted, the server has deleted the intake session on purpose; nothing is lost.
  if (!sentToken || useReportForm.getState().isSubmitted) return false;
  const expired =
    isRequestError(error, 'INTAKE_EXPIRED') ||
    isRequestError(error, 'UNAUTHORIZED') ||
    (!options.isDelete && isRequestError(error, 'NOT_FOUND'));
  if (!expired) return false;
  const store = useReportForm.getState();
  const { acts, harms } = store.form;
  if (acts.some((act) => act.evidences?.length))
    store.setField(
      'acts',
      acts.map((act) => ({ ...act, evidences: [] })),
    );
  if (harms.some((harm) => harm.evidences?.length))
    store.setField(
      'harms',
      harms.map((harm) => ({ ...harm, evidences: [] })),
    );
  useIntakeToken.getState().expire();
  return true;
}
