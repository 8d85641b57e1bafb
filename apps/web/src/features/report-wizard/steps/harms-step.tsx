import { HARM_TYPES, REPORT_LIMITS, WISH_OPTIONS } from '@ansim/shared/report-form-options';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { CheckboxGroupField, DraftTextField } from '../../../components/form/draft-fields';
import { RepeatableSection } from '../../../components/form/repeatable-section';
import { StepSection } from '../../../components/form/step-section';
import { useReportForm } from '../../../stores/report-form-store';
import { deleteFilesOf } from '../components/remove-with-files';
import { ReportEvidenceField } from '../components/report-evidence-field';
import { useListField } from '../components/report-fields';
import { FormTextArea } from '../components/report-text-area';

/** Step 3: what the acts did to the reporter, with evidence, and what they want the company to do. */
export function HarmsStep() {
  const { t } = useTranslation();
  const { items, update, add, remove } = useListField('harms');
  const wishes = useReportForm((state) => state.form.wishes);
  const setField = useReportForm((state) => state.setField);
  return (
    <Stack spacing={5}>
      <StepSection title={t('harms.heading')} description={t('harms.help')}>
        <RepeatableSection
          path="harms"
          count={items.length}
          max={REPORT_LIMITS.harms}
          itemTitle={(index) => t('harms.item', { number: index + 1 })}
          addLabel={t('harms.add')}
          emptyText={t('harms.empty')}
          firstFieldPath={(index) => `harms.${index}.type`}
          onAdd={() => add({ type: '', description: '', evidences: null })}
          onRemove={(index) => {
            deleteFilesOf(items[index]);
            remove(index);
          }}
          renderItem={(index) => {
            const harm = items[index]!;
            return (
              <>
                <DraftTextField
                  path={`harms.${index}.type`}
                  select
                  required
                  label={t('harms.type')}
                  value={harm.type}
                  onValueChange={(type) => update(index, { type: type as (typeof HARM_TYPES)[number] })}
                  slotProps={{ inputLabel: { shrink: true } }}
                >
                  <option value="">{t('harms.typePlaceholder')}</option>
                  {HARM_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {t(`options.harmTypes.${type}`)}
                    </option>
                  ))}
                </DraftTextField>
                <DraftTextField
                  path={`harms.${index}.description`}
                  label={t('harms.description')}
                  helperText={t('harms.descriptionHelp')}
                  multiline
                  minRows={3}
                  value={harm.description}
                  onValueChange={(description) => update(index, { description })}
                />
                <ReportEvidenceField list="harms" index={index} />
              </>
            );
          }}
        />
      </StepSection>
      <StepSection title={t('harms.wishesHeading')} description={t('harms.wishesHelp')}>
        <CheckboxGroupField
          path="wishes"
          legend={t('harms.wishesLegend')}
          options={WISH_OPTIONS}
          labelOf={(wish) => t(`options.wishes.${wish}`)}
          value={wishes}
          onValueChange={(next) => setField('wishes', next)}
        />
        <FormTextArea field="wish_etc" label={t('harms.wishEtc')} minRows={2} />
      </StepSection>
    </Stack>
  );
}
