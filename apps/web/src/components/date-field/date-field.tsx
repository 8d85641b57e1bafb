import CalendarMonthOutlined from '@mui/icons-material/CalendarMonthOutlined';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../text-input';
import { displayDay, parseDay } from './date-input';

interface Props {
  id: string;
  label: string;
  /** An ISO day or ''. */
  value: string;
  onChange: (value: string) => void;
  min?: string;
  max?: string;
}

/**
 * A day typed in the page's format, with the browser's calendar one click away. The calendar is a native
 * date input kept out of sight: only its picker is used, never its locale-bound text.
 */
export function DateField({ id, label, value, onChange, min, max }: Props) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState(() => displayDay(value, i18n.language));
  const [isInvalid, setIsInvalid] = useState(false);
  const picker = useRef<HTMLInputElement>(null);

  // A reset, Back, or a change of language rewrites the field from the value.
  useEffect(() => {
    setText(displayDay(value, i18n.language));
    setIsInvalid(false);
  }, [value, i18n.language]);

  const commit = () => {
    const parsed = parseDay(text);
    if (parsed === null) {
      setIsInvalid(true);
      return;
    }
    setIsInvalid(false);
    setText(displayDay(parsed, i18n.language));
    if (parsed !== value) onChange(parsed);
  };

  return (
    <TextInput
      id={id}
      label={label}
      value={text}
      onChange={(event) => setText(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key !== 'Enter') return;
        event.preventDefault();
        commit();
      }}
      size="small"
      error={isInvalid}
      helperText={isInvalid ? t('dateField.invalid') : undefined}
      placeholder={t('dateField.placeholder')}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { inputMode: 'numeric', autoComplete: 'off' },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                edge="end"
                size="small"
                aria-label={t('dateField.openCalendar', { label })}
                onClick={() => picker.current?.showPicker?.()}
              >
                <CalendarMonthOutlined fontSize="small" />
              </IconButton>
              <input
                ref={picker}
                type="date"
                tabIndex={-1}
                aria-hidden="true"
                value={value}
                min={min}
                max={max}
                onChange={(event) => onChange(event.target.value)}
                style={{
                  position: 'absolute',
                  right: 0,
                  bottom: 0,
                  width: 1,
                  height: 1,
                  opacity: 0,
                  border: 0,
                  padding: 0,
                  pointerEvents: 'none',
                }}
              />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
