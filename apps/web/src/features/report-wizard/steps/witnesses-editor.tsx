import { REPORT_LIMITS } from '@ansim/shared/report-form-options';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { DraftTextField } from '../../../components/form/draft-fields';
import { RepeatableSection } from '../../../components/form/repeatable-section';
import { StepSection } from '../../../components/form/step-section';
import { useListField } from '../components/report-fields';
import { FormTextArea } from '../components/report-text-area';

/** Witnesses the manager may ask for a statement, and anything else the reporter wants to add. */
export function WitnessesEditor({ witnessHelp }: { witnessHelp: string }) {
  const { t } = useTranslation();
  const { items, update, add, remove } = useListField('witnesses');
  return (
    <Stack spacing={5}>
      <StepSection title={t('witnesses.heading')} description={witnessHelp}>
        <RepeatableSection
          path="witnesses"
          count={items.length}
          max={REPORT_LIMITS.witnesses}
          itemTitle={(index) => t('witnesses.item', { number: index + 1 })}
          addLabel={t('witnesses.add')}
          emptyText={t('witnesses.empty')}
          firstFieldPath={(index) => `witnesses.${index}.name`}
          onAdd={() => add({ name: '', department: '', position: '', email: null, email_sent_at: null })}
          onRemove={remove}
          renderItem={(index) => {
            const witness = items[index]!;
            return (
              <>
                <DraftTextField
                  path={`witnesses.${index}.name`}
                  label={t('witnesses.name')}
                  required
                  value={witness.name}
                  onValueChange={(name) => update(index, { name })}
                />
                <DraftTextField
                  path={`witnesses.${index}.department`}
                  label={t('parties.department')}
                  value={witness.department}
                  onValueChange={(department) => update(index, { department })}
                />
                <DraftTextField
                  path={`witnesses.${index}.position`}
                  label={t('parties.role')}
                  value={witness.position}
                  onValueChange={(position) => update(index, { position })}
                />
                <DraftTextField
                  path={`witnesses.${index}.email`}
                  type="email"
                  label={t('witnesses.email')}
                  helperText={t('witnesses.emailHelp')}
                  value={witness.email ?? ''}
                  onValueChange={(email) => update(index, { email })}
                />
              </>
            );
          }}
        />
      </StepSection>
      <StepSection title={t('witnesses.extraHeading')}>
        <FormTextArea
          field="extra_info"
          label={t('witnesses.extraInfo')}
          helperText={t('witnesses.extraInfoHelp')}
          minRows={3}
        />
      </StepSection>
    </Stack>
  );
}
