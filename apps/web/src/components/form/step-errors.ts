import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../../lib/messages';

/**
 * The messages a step shows, keyed by dotted path (`acts.0.description`). The report wizard and the invitee's
 * statement bind fields straight to their draft store rather than to react-hook-form: every keystroke must
 * reach its own storage key anyway, and one source of truth keeps the draft, the review screen and the
 * server's 400 details in step.
 */
const StepErrorsContext = createContext<Record<string, string>>({});
export const StepErrorsProvider = StepErrorsContext.Provider;

export function useFieldError(path: string): string | undefined {
  const { t } = useTranslation();
  return fieldMessage(t, useContext(StepErrorsContext)[path]);
}

/** A stable id for a field path, so a step can move focus to the first field with an error. */
export const fieldId = (path: string) => `draft-${path.replace(/\./g, '-')}`;

/** Moves keyboard focus to the field of an error path (or the first control inside its group). */
export function focusField(path: string): boolean {
  const element = document.getElementById(fieldId(path));
  if (!element) return false;
  const focusable =
    element.matches('input, textarea, select, button') || element.hasAttribute('tabindex')
      ? element
      : element.querySelector<HTMLElement>('input, textarea, select, button');
  if (!focusable) return false;
  focusable.focus();
  return true;
}
