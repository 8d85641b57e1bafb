import { useId } from 'react';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../../lib/messages';

export interface PlainTextInputProps
  extends Omit<React.InputHTMLAttributes<HTMLInputElement>, 'placeholder' | 'children'> {
  label: string;
  helperText?: React.ReactNode;
  error?: boolean;
  ref?: React.Ref<HTMLInputElement>;
  'data-testid'?: string;
}

/**
 * MUI's outlined text field in plain HTML (styles/plain-controls.css), for the pages that draw without MUI
 * (decision 0022): the same label, required mark, helper text and `aria-describedby`. The label moves onto the
 * outline's notch by CSS alone, from the input's focus and its placeholder of one space.
 */
export function PlainTextInput({
  id,
  label,
  helperText,
  error = false,
  required,
  className,
  ref,
  ...input
}: PlainTextInputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const helperId = helperText ? `${inputId}-helper-text` : undefined;
  // MUI's required mark: a thin space and an asterisk that screen readers skip (the input says `required`).
  const mark = required ? '\u2009*' : '';
  return (
    <div className={error ? 'plain-field plain-field--error' : 'plain-field'}>
      <div className="plain-field__box">
        <input
          {...input}
          ref={ref}
          id={inputId}
          className={className ? `plain-field__input ${className}` : 'plain-field__input'}
          required={required}
          placeholder=" "
          aria-invalid={error}
          aria-describedby={helperId}
        />
        <label htmlFor={inputId} className="plain-field__label">
          {label}
          {mark && <span aria-hidden="true">{mark}</span>}
        </label>
        <fieldset aria-hidden="true" className="plain-field__outline">
          <legend>
            <span>
              {label}
              {mark}
            </span>
          </legend>
        </fieldset>
      </div>
      {helperText && (
        <p id={helperId} className="plain-field__helper">
          {helperText}
        </p>
      )}
    </div>
  );
}

interface PlainTextFieldProps<T extends FieldValues> {
  name: Path<T>;
  control: Control<T>;
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  required?: boolean;
  helperText?: string;
}

/** PlainTextInput bound to react-hook-form, as FormTextField binds TextInput: the schema's message under it. */
export function PlainTextField<T extends FieldValues>({
  name,
  control,
  helperText,
  ...props
}: PlainTextFieldProps<T>) {
  const { t } = useTranslation();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field: { value, ...field }, fieldState }) => (
        <PlainTextInput
          {...props}
          {...field}
          value={value ?? ''}
          error={Boolean(fieldState.error)}
          helperText={fieldMessage(t, fieldState.error?.message) ?? helperText}
        />
      )}
    />
  );
}
