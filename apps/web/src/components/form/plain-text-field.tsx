import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../../lib/messages';
import { PlainTextInput } from './plain-text-input';

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
