import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { type RequestError, toRequestError } from './request-error';

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
  const entries = Object.entries(details);
  const placed = entries.filter(([path]) => (fields as readonly string[]).includes(path));
  const unplaced = entries.length === 0 || placed.length < entries.length;
  placed.forEach(([path, message], index) => {
    // Focus goes to the first field that needs a change, unless a form-level message (which takes it) shows.
    setError(path as Path<T>, { type: 'server', message }, { shouldFocus: index === 0 && !unplaced });
  });
  return unplaced ? requestError : null;
}
