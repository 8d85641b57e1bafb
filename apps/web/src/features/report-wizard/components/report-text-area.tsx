import { DraftTextField, type DraftTextFieldProps } from '../../../components/form/draft-fields';
import { useReportForm } from '../../../stores/report-form-store';
import type { StringField } from './report-fields';

/** A multi-line MUI field editing one top-level string field of the draft (the later steps' free answers). */
export function FormTextArea({
  field,
  ...props
}: Omit<DraftTextFieldProps, 'path' | 'value' | 'onValueChange' | 'multiline'> & {
  field: StringField;
}) {
  const value = useReportForm((state) => state.form[field]);
  const setField = useReportForm((state) => state.setField);
  return (
    <DraftTextField
      {...props}
      multiline
      path={field}
      value={value ?? ''}
      onValueChange={(next) => setField(field, next as never)}
    />
  );
}
