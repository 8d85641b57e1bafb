import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput, type TextInputProps } from '../../../components/text-input';
import { fieldMessage } from '../../../lib/messages';
import type { ReportField, ReportForm } from '../report-form';
import { useReportForm } from '../report-form-store';

/**
 * The messages a step shows, keyed by dotted path (`acts.0.description`). The wizard binds fields straight to
 * the draft store rather than to react-hook-form: every keystroke must reach its own storage key anyway, and
 * one source of truth keeps the draft, the review screen and the server's 400 details in step.
 */
const StepErrorsContext = createContext<Record<string, string>>({});
export const StepErrorsProvider = StepErrorsContext.Provider;

export function useFieldError(path: string): string | undefined {
  const { t } = useTranslation();
  return fieldMessage(t, useContext(StepErrorsContext)[path]);
}

/** A stable id for a field path, so the wizard can move focus to the first field with an error. */
export const fieldId = (path: string) => `draft-${path.replace(/\./g, '-')}`;

type DraftTextFieldProps = Omit<TextInputProps, 'value' | 'onChange' | 'error'> & {
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

type StringField = {
  [K in ReportField]: ReportForm[K] extends string ? K : ReportForm[K] extends string | null ? K : never;
}[ReportField];

/** A text field editing one top-level string field of the draft. */
export function FormField({
  field,
  ...props
}: Omit<DraftTextFieldProps, 'path' | 'value' | 'onValueChange'> & {
  field: StringField;
}) {
  const value = useReportForm((state) => state.form[field]);
  const setField = useReportForm((state) => state.setField);
  return (
    <DraftTextField
      {...props}
      path={field}
      value={value ?? ''}
      onValueChange={(next) => setField(field, next as never)}
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

type ListField = 'acts' | 'harms' | 'concerns' | 'witnesses';

/** Edits one repeatable list of the draft; every change writes the whole list to its storage key. */
export function useListField<K extends ListField>(field: K) {
  const items = useReportForm((state) => state.form[field]);
  const setField = useReportForm((state) => state.setField);
  type Item = ReportForm[K][number];
  const write = (next: Item[]) => setField(field, next as ReportForm[K]);
  return {
    items: items as Item[],
    update: (index: number, patch: Partial<Item>) =>
      write((items as Item[]).map((item, i) => (i === index ? { ...item, ...patch } : item))),
    add: (item: Item) => write([...(items as Item[]), item]),
    remove: (index: number) => write((items as Item[]).filter((_, i) => i !== index)),
  };
}
