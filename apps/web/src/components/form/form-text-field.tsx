import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../../lib/messages';
import { TextInput, type TextInputProps } from '../text-input';

type FormTextFieldProps<T extends FieldValues> = Omit<TextInputProps, 'name' | 'error'> & {
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
      // `ref` goes to the input only: spread onto the field it would land on the wrapper <div> as well, and
      // react-hook-form would then "focus" the div on an invalid submit, leaving focus on the button.
      render={({ field: { ref, ...field }, fieldState }) => (
        <TextInput
          {...props}
          {...field}
          value={field.value ?? ''}
          inputRef={ref}
          error={Boolean(fieldState.error)}
          helperText={fieldMessage(t, fieldState.error?.message) ?? helperText}
        />
      )}
    />
  );
}
