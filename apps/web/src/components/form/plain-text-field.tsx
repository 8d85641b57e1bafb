import { useId } from 'react';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../../lib/messages';

interface PlainTextFieldProps<T extends FieldValues> {
  name: Path<T>;
  control: Control<T>;
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  required?: boolean;
  helperText?: string;
}

/**
 * FormTextField's outlined field in plain HTML (styles/plain-controls.css), for the pages that draw without MUI
 * (/login; decision 0022): the same label, required mark, helper text and `aria-describedby`, with the
 * shared schema's message translated under it.
 */
export function PlainTextField<T extends FieldValues>({
  name,
  control,
  label,
  type = 'text',
  autoComplete,
  required,
  helperText,
}: PlainTextFieldProps<T>) {
  const { t } = useTranslation();
  const id = useId();
  // MUI's required mark: a thin space and an asterisk that screen readers skip (the input says `required`).
  const mark = required ? '\u2009*' : '';
  return (
    <Controller
      name={name}
      control={control}
      render={({ field: { ref, value, ...field }, fieldState }) => {
        const message = fieldMessage(t, fieldState.error?.message) ?? helperText;
        const helperId = message ? `${id}-helper-text` : undefined;
        return (
          <div className={fieldState.error ? 'plain-field plain-field--error' : 'plain-field'}>
            <div className="plain-field__box">
              <input
                {...field}
                ref={ref}
                id={id}
                className="plain-field__input"
                type={type}
                autoComplete={autoComplete}
                required={required}
                // One space: `:placeholder-shown` then tells CSS whether the field is empty, for its label.
                placeholder=" "
                value={value ?? ''}
                aria-invalid={Boolean(fieldState.error)}
                aria-describedby={helperId}
              />
              <label htmlFor={id} className="plain-field__label">
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
            {message && (
              <p id={helperId} className="plain-field__helper">
                {message}
              </p>
            )}
          </div>
        );
      }}
    />
  );
}
