import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../../../lib/messages';

type FormTextFieldProps<T extends FieldValues> = Omit<TextFieldProps, 'name' | 'error'> & {
  name: Path<T>;
  control: Control<T>;
};

/** A text field bound to react-hook-form whose error text is translated from the shared schema message. */
export function FormTextField<T extends FieldValues>({
  name,
  control,
  helperText,
  ...props
}: FormTextFieldProps<T>) {
  const { t } = useTranslation();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...props}
          {...field}
          value={field.value ?? ''}
          inputRef={field.ref}
          error={Boolean(fieldState.error)}
          helperText={fieldMessage(t, fieldState.error?.message) ?? helperText}
        />
      )}
    />
  );
}
