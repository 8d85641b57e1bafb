import type { Witness } from '@ansim/shared/report-form';
import { REPORT_LIMITS } from '@ansim/shared/report-form-options';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { DraftTextField } from '../../../components/form/draft-fields';
import { RepeatableSection } from '../../../components/form/repeatable-section';
import { StepSection } from '../../../components/form/step-section';
import { StatementTextField } from '../components/statement-fields';
import { useStatementDraft } from '../statement-context';

/** Step 3: people who can confirm the accused person's account, and anything else they want to add. */
export function DefendantWitnessesStep() {
  const { t } = useTranslation();
  const items = useStatementDraft((state) => state.form.defendant_witnesses);
  const setField = useStatementDraft((state) => state.setField);
  const update = (index: number, patch: Partial<Witness>) =>
    setField(
      'defendant_witnesses',
      items.map((item, i) => (i === index ? { ...item, ...patch } : item)),
    );
  return (
    <Stack spacing={5}>
      <StepSection title={t('invitation.witnesses.heading')} description={t('invitation.witnesses.help')}>
        <RepeatableSection
          path="defendant_witnesses"
          count={items.length}
          max={REPORT_LIMITS.witnesses}
          itemTitle={(index) => t('invitation.witnesses.item', { number: index + 1 })}
          addLabel={t('invitation.witnesses.add')}
          emptyText={t('invitation.witnesses.empty')}
          firstFieldPath={(index) => `defendant_witnesses.${index}.name`}
          onAdd={() =>
            setField('defendant_witnesses', [
              ...items,
              { name: '', department: '', position: '', email: null, email_sent_at: null },
            ])
          }
          onRemove={(index) =>
            setField(
              'defendant_witnesses',
              items.filter((_, i) => i !== index),
            )
          }
          renderItem={(index) => {
            const witness = items[index]!;
            return (
              <>
                <DraftTextField
                  path={`defendant_witnesses.${index}.name`}
                  label={t('invitation.witnesses.name')}
                  required
                  value={witness.name}
                  onValueChange={(name) => update(index, { name })}
                />
                <DraftTextField
                  path={`defendant_witnesses.${index}.department`}
                  label={t('invitation.fields.department')}
                  value={witness.department}
                  onValueChange={(department) => update(index, { department })}
                />
                <DraftTextField
                  path={`defendant_witnesses.${index}.position`}
                  label={t('invitation.fields.role')}
                  value={witness.position}
                  onValueChange={(position) => update(index, { position })}
                />
                <DraftTextField
                  path={`defendant_witnesses.${index}.email`}
                  type="email"
                  label={t('invitation.witnesses.email')}
                  helperText={t('invitation.witnesses.emailHelp')}
                  value={witness.email ?? ''}
                  onValueChange={(email) => update(index, { email })}
                />
              </>
            );
          }}
        />
      </StepSection>
      <StepSection title={t('invitation.witnesses.extraHeading')}>
        <StatementTextField
          field="defendant_extra_info"
          label={t('invitation.fields.extraInfo')}
          helperText={t('invitation.fields.extraInfoHelp')}
          multiline
          minRows={3}
        />
      </StepSection>
    </Stack>
  );
}
