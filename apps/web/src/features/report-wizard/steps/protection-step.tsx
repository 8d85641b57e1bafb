import { PROTECTION_OPTIONS } from '@ansim/shared/report-form-options';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { CheckboxGroupField } from '../../../components/form/draft-fields';
import { useReportForm } from '../../../stores/report-form-store';
import { FormTextArea } from '../components/report-text-area';

/**
 * Formal step 4: protective measures during the investigation. Labor Standards Act art. 76-3 ③ obliges the
 * employer to take them where needed, and ⑥ forbids treating the reporter unfavourably for asking.
 */
export function ProtectionStep() {
  const { t } = useTranslation();
  const requests = useReportForm((state) => state.form.protection_requests);
  const setField = useReportForm((state) => state.setField);
  const wantsOther = requests.includes('other');
  return (
    <Stack spacing={3}>
      <Alert severity="info">{t('protection.notice')}</Alert>
      <CheckboxGroupField
        path="protection_requests"
        legend={t('protection.legend')}
        options={PROTECTION_OPTIONS}
        labelOf={(option) => t(`options.protection.${option}`)}
        value={requests}
        onValueChange={(next) => setField('protection_requests', next)}
        helperText={t('protection.optional')}
      />
      <FormTextArea
        field="protection_etc"
        label={t('protection.etc')}
        helperText={wantsOther ? t('protection.etcRequired') : t('protection.etcHelp')}
        required={wantsOther}
        minRows={2}
      />
    </Stack>
  );
}
