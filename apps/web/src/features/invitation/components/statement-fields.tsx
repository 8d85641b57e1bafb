import type { ReportForm } from '@ansim/shared/report-form';
import { DraftTextField } from '../../../components/form/draft-fields';
import type { TextInputProps } from '../../../components/text-input';
import { useStatementDraft } from '../statement-context';
import type { StatementField } from '../statement-draft-store';

type TextStatementField = {
  [K in StatementField]: ReportForm[K] extends string ? K : never;
}[StatementField];

/** A text field bound to one string field of the invitee's draft; every keystroke is kept locally. */
export function StatementTextField({
  field,
  ...props
}: Omit<TextInputProps, 'value' | 'onChange' | 'error'> & { field: TextStatementField }) {
  const value = useStatementDraft((state) => state.form[field]);
  const setField = useStatementDraft((state) => state.setField);
  return (
    <DraftTextField {...props} path={field} value={value} onValueChange={(next) => setField(field, next)} />
  );
}
