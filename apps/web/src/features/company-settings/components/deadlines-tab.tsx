import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { TextInput } from '../../../components/text-input';
import { useDateTime } from '../../../lib/datetime';
import { isRequestError } from '../../../lib/request-error';
import { type CompanySettings, useUpdateSettings } from '../api/company-settings';
import { SettingsSection } from './settings-section';

type Field = 'ack_deadline_days' | 'feedback_deadline_days' | 'retention_days';

export function DeadlinesTab({ settings }: { settings: CompanySettings }) {
  const { t } = useTranslation();
  const { date } = useDateTime();
  const update = useUpdateSettings();
  const [values, setValues] = useState<Record<Field, string>>({
    ack_deadline_days: String(settings.ack_deadline_days),
    feedback_deadline_days: String(settings.feedback_deadline_days),
    retention_days: String(settings.retention_days),
  });
  const details = isRequestError(update.error) ? update.error.details : undefined;
  const fields: { name: Field; label: string; help: string; limits: { min: number; max: number } }[] = [
    {
      name: 'ack_deadline_days',
      label: t('settings.deadlines.ack'),
      limits: settings.limits.ackDays,
      help: t('settings.deadlines.ackHelp', settings.limits.ackDays),
    },
    {
      name: 'feedback_deadline_days',
      label: t('settings.deadlines.feedback'),
      limits: settings.limits.feedbackDays,
      help: t('settings.deadlines.feedbackHelp', settings.limits.feedbackDays),
    },
    {
      name: 'retention_days',
      label: t('settings.deadlines.retention'),
      limits: settings.limits.retentionDays,
      help: t('settings.deadlines.retentionHelp', settings.limits.retentionDays),
    },
  ];
  return (
    <SettingsSection title={t('settings.deadlines.heading')} intro={t('settings.deadlines.intro')}>
      <Stack
        component="form"
        noValidate
        spacing={3}
        onSubmit={(event) => {
          event.preventDefault();
          update.mutate(
            {
              ack_deadline_days: Number(values.ack_deadline_days),
              feedback_deadline_days: Number(values.feedback_deadline_days),
              retention_days: Number(values.retention_days),
            },
            { onSuccess: () => showSnackbar(t('settings.deadlines.saved'), 'success') },
          );
        }}
      >
        {fields.map((field) => (
          <TextInput
            key={field.name}
            name={field.name}
            label={field.label}
            type="number"
            value={values[field.name]}
            onChange={(event) => setValues((current) => ({ ...current, [field.name]: event.target.value }))}
            error={Boolean(details?.[field.name])}
            helperText={details?.[field.name] ?? field.help}
            sx={{ maxWidth: 560 }}
            slotProps={{
              htmlInput: { min: field.limits.min, max: field.limits.max, step: 1, inputMode: 'numeric' },
              input: {
                endAdornment: <InputAdornment position="end">{t('settings.deadlines.days')}</InputAdornment>,
              },
            }}
          />
        ))}
        {settings.retention_set_by && settings.retention_set_at && (
          <Typography variant="body2" color="text.secondary">
            {t('settings.deadlines.retentionSetBy', {
              by: settings.retention_set_by,
              date: date(settings.retention_set_at),
            })}
          </Typography>
        )}
        {update.error && !details && <Alert severity="error">{update.error.message}</Alert>}
        <div>
          <Button type="submit" variant="contained" disabled={update.isPending}>
            {t('settings.deadlines.save')}
          </Button>
        </div>
      </Stack>
    </SettingsSection>
  );
}
