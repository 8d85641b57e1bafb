import { useId } from 'react';

interface PlainFieldFrameProps {
  inputId: string;
  label: string;
  helperText?: React.ReactNode;
  error: boolean;
  required?: boolean;
  /** The label stays on the outline's notch, as MUI's `shrink`: a native select always shows an option. */
  shrink?: boolean;
  /** The input, given the id of the helper text that describes it. */
  children: (helperId: string | undefined) => React.ReactNode;
}

/** The label, the notched outline and the helper text around a plain input or select (styles/plain-controls.css). */
function PlainFieldFrame({
  inputId,
  label,
  helperText,
  error,
  required,
  shrink,
  children,
}: PlainFieldFrameProps) {
  const helperId = helperText ? `${inputId}-helper-text` : undefined;
  // MUI's required mark: a thin space and an asterisk that screen readers skip (the input says `required`).
  const mark = required ? '\u2009*' : '';
  const classes = ['plain-field', error && 'plain-field--error', shrink && 'plain-field--shrink'];
  return (
    <div className={classes.filter(Boolean).join(' ')}>
      <div className="plain-field__box">
        {children(helperId)}
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
  return (
    <PlainFieldFrame
      inputId={inputId}
      label={label}
      helperText={helperText}
      error={error}
      required={required}
    >
      {(helperId) => (
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
      )}
    </PlainFieldFrame>
  );
}

export interface PlainSelectInputProps
  extends Omit<React.SelectHTMLAttributes<HTMLSelectElement>, 'multiple'> {
  label: string;
  helperText?: React.ReactNode;
  error?: boolean;
}

/** MUI's outlined native select (TextInput with `select`) in plain HTML: the <option>s are the children. */
export function PlainSelectInput({
  id,
  label,
  helperText,
  error = false,
  required,
  children,
  ...select
}: PlainSelectInputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  return (
    <PlainFieldFrame
      inputId={inputId}
      label={label}
      helperText={helperText}
      error={error}
      required={required}
      shrink
    >
      {(helperId) => (
        <>
          <select
            {...select}
            id={inputId}
            className="plain-field__input plain-field__select"
            required={required}
            aria-invalid={error}
            aria-describedby={helperId}
          >
            {children}
          </select>
          <svg className="plain-field__select-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M7 10l5 5 5-5z" />
          </svg>
        </>
      )}
    </PlainFieldFrame>
  );
}
