import { useId } from 'react';
import { ICON_PATHS } from '../icons';

/** What the frame gives its input or select: the id its label names, and the state it announces. */
interface FramedControl {
  id: string;
  required?: boolean;
  'aria-invalid': boolean;
  'aria-describedby'?: string;
}

interface PlainFieldFrameProps {
  /** The control's id; one is made up when not given. */
  id?: string;
  label: string;
  helperText?: React.ReactNode;
  error: boolean;
  required?: boolean;
  /** The label stays on the outline's notch, as MUI's `shrink`: a native select always shows an option. */
  shrink?: boolean;
  children: (control: FramedControl) => React.ReactNode;
}

/** The label, the notched outline and the helper text around a plain input or select (styles/plain-controls.css). */
function PlainFieldFrame({ id, label, helperText, error, required, shrink, children }: PlainFieldFrameProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const helperId = helperText ? `${inputId}-helper-text` : undefined;
  // MUI's required mark: a thin space and an asterisk that screen readers skip (the input says `required`).
  const mark = required ? '\u2009*' : '';
  const classes = ['plain-field', error && 'plain-field--error', shrink && 'plain-field--shrink'];
  return (
    <div className={classes.filter(Boolean).join(' ')}>
      <div className="plain-field__box">
        {children({ id: inputId, required, 'aria-invalid': error, 'aria-describedby': helperId })}
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
  return (
    <PlainFieldFrame id={id} label={label} helperText={helperText} error={error} required={required}>
      {(control) => (
        <input
          {...input}
          {...control}
          ref={ref}
          className={className ? `plain-field__input ${className}` : 'plain-field__input'}
          placeholder=" "
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
  return (
    <PlainFieldFrame id={id} label={label} helperText={helperText} error={error} required={required} shrink>
      {(control) => (
        <>
          <select {...select} {...control} className="plain-field__input plain-field__select">
            {children}
          </select>
          <svg className="plain-field__select-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d={ICON_PATHS.arrowDropDown} />
          </svg>
        </>
      )}
    </PlainFieldFrame>
  );
}
