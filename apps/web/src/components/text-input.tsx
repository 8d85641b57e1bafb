import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel, { type InputLabelProps } from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import { useId } from 'react';

export interface TextInputProps extends Omit<OutlinedInputProps, 'label' | 'slotProps'> {
  /** Left out only where the field is named otherwise, e.g. by an `aria-label` in a table row. */
  label?: React.ReactNode;
  helperText?: React.ReactNode;
  /** A native <select> of the given <option> children, as TextField's `select` with `native: true`. */
  select?: boolean;
  children?: React.ReactNode;
  /** TextField's slots that our fields use: the native input's attributes, the label, the input itself. */
  slotProps?: {
    htmlInput?: React.InputHTMLAttributes<HTMLInputElement> & { [data: `data-${string}`]: string };
    inputLabel?: Partial<InputLabelProps>;
    input?: Partial<OutlinedInputProps>;
  };
}

/**
 * An outlined text field that looks and reads like MUI's TextField without being one: TextField imports Select,
 * and with it Menu, Popover and Modal, about 20 KB gzip on every page that has a field (R-PERF-2, the budget on
 * what a first visit transfers). The label, the required mark, the helper text and `aria-describedby` are
 * wired as TextField wires them.
 */
export function TextInput({
  id,
  label,
  helperText,
  error,
  required,
  disabled,
  fullWidth = true,
  size,
  sx,
  slotProps,
  inputProps,
  select,
  children,
  ...input
}: TextInputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const helperId = helperText ? `${inputId}-helper-text` : undefined;
  return (
    <FormControl
      variant="outlined"
      fullWidth={fullWidth}
      error={error}
      required={required}
      disabled={disabled}
      size={size}
      sx={sx}
    >
      {label !== undefined && (
        // A native select always shows its chosen option, even one whose value is '': its label stays small.
        <InputLabel shrink={select || undefined} {...slotProps?.inputLabel} htmlFor={inputId}>
          {label}
        </InputLabel>
      )}
      {select ? (
        <NativeSelect
          {...(input as object)}
          input={<OutlinedInput label={label} notched {...slotProps?.input} />}
          inputProps={{ ...(slotProps?.htmlInput as object), id: inputId, 'aria-describedby': helperId }}
        >
          {children}
        </NativeSelect>
      ) : (
        <OutlinedInput
          {...input}
          {...slotProps?.input}
          id={inputId}
          // The notch in the outline is cut to the label; OutlinedInput adds the required mark itself.
          label={label}
          aria-describedby={helperId}
          inputProps={{ ...inputProps, ...slotProps?.htmlInput }}
        />
      )}
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
