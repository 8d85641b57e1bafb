import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import { TextInput, type TextInputProps } from '../text-input';
import { fieldId, useFieldError } from './step-errors';

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
