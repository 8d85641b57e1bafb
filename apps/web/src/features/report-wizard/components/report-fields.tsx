import {
  PlainDraftTextField,
  type PlainDraftTextFieldProps,
} from '../../../components/form/plain-draft-fields';
import type { ReportField, ReportForm } from '../../../stores/report-form';
import { useReportForm } from '../../../stores/report-form-store';

export type StringField = {
  [K in ReportField]: ReportForm[K] extends string ? K : ReportForm[K] extends string | null ? K : never;
}[ReportField];

/** A one-line field editing one top-level string field of the draft, drawn without MUI (the first step's fields). */
export function FormField({
  field,
  ...props
}: Omit<PlainDraftTextFieldProps, 'path' | 'value' | 'onValueChange'> & {
  field: StringField;
}) {
  const value = useReportForm((state) => state.form[field]);
  const setField = useReportForm((state) => state.setField);
  return (
    <PlainDraftTextField
      {...props}
      path={field}
      value={value ?? ''}
      onValueChange={(next) => setField(field, next as never)}
    />
  );
}

type ListField = 'acts' | 'harms' | 'concerns' | 'witnesses';

/** Edits one repeatable list of the draft; every change writes the whole list to its storage key. */
export function useListField<K extends ListField>(field: K) {
  const items = useReportForm((state) => state.form[field]);
  const setField = useReportForm((state) => state.setField);
  type Item = ReportForm[K][number];
  const write = (next: Item[]) => setField(field, next as ReportForm[K]);
  return {
    items: items as Item[],
    update: (index: number, patch: Partial<Item>) =>
      write((items as Item[]).map((item, i) => (i === index ? { ...item, ...patch } : item))),
    add: (item: Item) => write([...(items as Item[]), item]),
    remove: (index: number) => write((items as Item[]).filter((_, i) => i !== index)),
  };
}
