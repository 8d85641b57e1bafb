import { useId } from 'react';
import { ICON_PATHS } from '../icons';
import { PlainTextInput, type PlainTextInputProps } from './plain-text-input';
import { fieldId, useFieldError } from './step-errors';

export type PlainDraftTextFieldProps = Omit<PlainTextInputProps, 'value' | 'onChange' | 'error'> & {
  path: string;
  value: string;
  onValueChange: (value: string) => void;
};

/** A one-line field bound to a draft path, drawn without MUI: DraftTextField's plain twin for a step's first page. */
export function PlainDraftTextField({
  path,
  value,
  onValueChange,
  helperText,
  ...props
}: PlainDraftTextFieldProps) {
  const error = useFieldError(path);
  return (
    <PlainTextInput
      id={fieldId(path)}
      {...props}
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      error={Boolean(error)}
      helperText={error ?? helperText}
    />
  );
}

/**
 * One choice among a few, as MUI's RadioGroup in a FormControl with a FormLabel (styles/plain-controls.css): the
 * native radios keep the arrow keys and the form semantics; the circles drawn over them are MUI's icons.
 */
export function PlainRadioGroupField<T extends string>({
  path,
  label,
  options,
  labelOf,
  value,
  onValueChange,
  required,
}: {
  path: string;
  label: string;
  options: readonly T[];
  labelOf: (option: T) => string;
  value: T | '' | null;
  onValueChange: (value: T) => void;
  required?: boolean;
}) {
  const labelId = useId();
  const name = useId();
  const error = useFieldError(path);
  const helperId = error ? `${labelId}-helper-text` : undefined;
  return (
    <div className={error ? 'plain-choice-group plain-choice-group--error' : 'plain-choice-group'}>
      <span id={labelId} className="plain-choice-group__label">
        {label}
        {required && <span aria-hidden="true">{'\u2009*'}</span>}
      </span>
      <div
        role="radiogroup"
        aria-labelledby={labelId}
        aria-describedby={helperId}
        aria-required={required || undefined}
        aria-invalid={Boolean(error) || undefined}
        className="plain-choice-group__options"
      >
        {options.map((option, index) => (
          <label key={option} className="plain-choice">
            <span className="plain-radio">
              <input
                type="radio"
                className="plain-radio__input"
                id={index === 0 ? fieldId(path) : undefined}
                name={name}
                value={option}
                checked={value === option}
                onChange={() => onValueChange(option)}
              />
              <svg className="plain-radio__ring" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <path d={ICON_PATHS.radioRing} />
              </svg>
              <svg className="plain-radio__dot" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <path d={ICON_PATHS.radioDot} />
              </svg>
            </span>
            <span className="plain-choice__label">{labelOf(option)}</span>
          </label>
        ))}
      </div>
      {error && (
        <p id={helperId} className="plain-field__helper">
          {error}
        </p>
      )}
    </div>
  );
}
