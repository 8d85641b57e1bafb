import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { StatementTextField } from '../components/statement-fields';

/** Step 1 of the accused person's statement: their own details, in the form's reporter_* fields (R-INV-4). */
export function DefendantInfoStep() {
  const { t } = useTranslation();
  return (
    <Stack spacing={2.5}>
      <StatementTextField field="reporter_name" label={t('invitation.fields.name')} autoComplete="name" />
      <StatementTextField
        field="reporter_role"
        label={t('invitation.fields.role')}
        autoComplete="organization-title"
      />
      <StatementTextField field="reporter_department" label={t('invitation.fields.department')} />
      <StatementTextField
        field="reporter_tenure"
        label={t('invitation.fields.tenure')}
        helperText={t('invitation.fields.tenureHelp')}
      />
    </Stack>
  );
}
