import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { InviteeEvidenceField } from '../components/invitee-evidence-field';
import { StatementTextField } from '../components/statement-fields';

/** The witness's one step (R-WIZ-3 "참고인 조사"): what they saw or heard, what they remember, their view. */
export function ReferenceStep() {
  const { t } = useTranslation();
  return (
    <Stack spacing={3}>
      <StatementTextField
        field="reference_witnessed"
        label={t('invitation.fields.witnessed')}
        helperText={t('invitation.fields.witnessedHelp')}
        required
        multiline
        minRows={4}
      />
      <StatementTextField
        field="reference_memory"
        label={t('invitation.fields.memory')}
        helperText={t('invitation.fields.memoryHelp')}
        multiline
        minRows={3}
      />
      <StatementTextField
        field="reference_opinion"
        label={t('invitation.fields.referenceOpinion')}
        helperText={t('invitation.fields.referenceOpinionHelp')}
        multiline
        minRows={3}
      />
      <InviteeEvidenceField field="reference_evidences" />
    </Stack>
  );
}
