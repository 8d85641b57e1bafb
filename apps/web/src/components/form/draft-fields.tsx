import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../../lib/messages';
import { TextInput, type TextInputProps } from '../text-input';

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

export type DraftTextFieldProps = Omit<TextInputProps, 'value' | 'onChange' | 'error'> & {
  path: string;
  value: string;
  onValueChange: (value: string) => void;
};

export function DraftTextField({ path, value, onValueChange, helperText, ...props }: DraftTextFieldProps) {
  const error = useFieldError(path);
  return (
    <TextInput
      id={fieldId(path)}
      fullWidth
      {...props}
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      error={Boolean(error)}
      helperText={error ?? helperText}
    />
  );
}

/** A group of checkboxes over a list of option codes, e.g. the wishes or the protective measures. */
export function CheckboxGroupField<T extends string>({
  path,
  legend,
  options,
  labelOf,
  value,
  onValueChange,
  helperText,
}: {
  path: string;
  legend: string;
  options: readonly T[];
  labelOf: (option: T) => string;
  value: readonly T[];
  onValueChange: (value: T[]) => void;
  helperText?: string;
}) {
  const error = useFieldError(path);
  const toggle = (option: T, checked: boolean) =>
    onValueChange(
      checked ? options.filter((o) => o === option || value.includes(o)) : value.filter((o) => o !== option),
    );
  return (
    <FormControl component="fieldset" error={Boolean(error)} id={fieldId(path)}>
      <FormLabel component="legend" sx={{ mb: 0.5, fontWeight: 600 }}>
        {legend}
      </FormLabel>
      <FormGroup>
        {options.map((option) => (
          <FormControlLabel
            key={option}
            control={
              <Checkbox
                checked={value.includes(option)}
                onChange={(event) => toggle(option, event.target.checked)}
              />
            }
            label={labelOf(option)}
          />
        ))}
      </FormGroup>
      {(error ?? helperText) && <FormHelperText>{error ?? helperText}</FormHelperText>}
    </FormControl>
  );
}
