import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { type RequestError, toRequestError } from '../../../lib/request-error';

/**
 * Puts a 400 VALIDATION_ERROR's per-field `details` onto the matching form fields. Returns the error for the
 * form-level alert, or null when every detail found its field (the field messages say it all).
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): RequestError | null {
  const requestError = toRequestError(error);
  const details = requestError.details ?? {};
  let unplaced = Object.keys(details).length === 0;
  for (const [path, message] of Object.entries(details)) {
    if ((fields as readonly string[]).includes(path)) {
      setError(path as Path<T>, { type: 'server', message });
    } else {
      unplaced = true;
    }
  }
  return unplaced ? requestError : null;
}
