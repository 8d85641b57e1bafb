import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { TextInput } from '../../../components/text-input';
import { isRequestError } from '../../../lib/request-error';
import { type CompanySettings, useUpdateSettings } from '../api/company-settings';
import { SettingsSection } from './settings-section';

export function NoticesTab({ settings }: { settings: CompanySettings }) {
  const { t } = useTranslation();
  const update = useUpdateSettings();
  const [contact, setContact] = useState(settings.notice_contact);
  const [helpText, setHelpText] = useState(settings.intake_help_text);
  const details = isRequestError(update.error) ? update.error.details : undefined;
  return (
    <SettingsSection title={t('settings.notices.heading')} intro={t('settings.notices.intro')}>
      <Stack
        component="form"
        noValidate
        spacing={3}
        onSubmit={(event) => {
          event.preventDefault();
          update.mutate(
            { notice_contact: contact, intake_help_text: helpText },
            { onSuccess: () => showSnackbar(t('settings.notices.saved'), 'success') },
          );
        }}
      >
        <TextInput
          label={t('settings.notices.contact')}
          value={contact}
          onChange={(event) => setContact(event.target.value)}
          error={Boolean(details?.notice_contact)}
          helperText={details?.notice_contact ?? t('settings.notices.contactHelp')}
          slotProps={{ htmlInput: { maxLength: settings.limits.noticeContact } }}
        />
        <TextInput
          label={t('settings.notices.helpText')}
          value={helpText}
          onChange={(event) => setHelpText(event.target.value)}
          error={Boolean(details?.intake_help_text)}
          helperText={
            details?.intake_help_text ??
            `${t('settings.notices.helpTextHelp')} (${helpText.length}/${settings.limits.intakeHelpText})`
          }
          multiline
          minRows={4}
          slotProps={{ htmlInput: { maxLength: settings.limits.intakeHelpText } }}
        />
        {update.error && !details && <Alert severity="error">{update.error.message}</Alert>}
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
          <Button type="submit" variant="contained" disabled={update.isPending}>
            {t('settings.notices.save')}
          </Button>
          <Link href={settings.intake_url} target="_blank" rel="noopener">
            {t('settings.notices.preview')}
          </Link>
        </Stack>
      </Stack>
    </SettingsSection>
  );
}
