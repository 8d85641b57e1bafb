import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/text-input';
import { isContactEmailValid, readContactEmail, writeContactEmail } from '../contact-email';
import '../../../locales/anonymous-copy';

/**
 * The optional private address for anonymous notices. A work address sits on the company's mail server, so
 * the reporter is told plainly not to use one, and what a notice will (not) contain.
 */
export function ContactEmailField({
  showErrors,
  serverError,
  onEdit,
}: {
  showErrors: boolean;
  /** The server's refusal of the address (a work or account address), shown at the field until it changes. */
  serverError?: string | null;
  onEdit?: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const [value, setValue] = useState(readContactEmail);
  const invalid = !isContactEmailValid(value);

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={titleId}
      sx={{ p: { xs: 2, sm: 3 }, mt: 4 }}
    >
      <Typography id={titleId} variant="h3" sx={{ fontSize: '1.1rem', fontWeight: 700, mb: 1 }}>
        {t('anonymous.contact.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('anonymous.contact.body')}
      </Typography>
      <Alert severity="info" sx={{ mb: 2 }}>
        {t('anonymous.contact.workWarning')}
      </Alert>
      <TextInput
        id="contact_email"
        label={t('anonymous.contact.label')}
        type="email"
        autoComplete="off"
        fullWidth
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          writeContactEmail(event.target.value);
          onEdit?.();
        }}
        error={Boolean(serverError) || (showErrors && invalid)}
        helperText={serverError || (showErrors && invalid ? t('anonymous.contact.invalid') : undefined)}
        slotProps={{ htmlInput: { maxLength: 254, 'data-testid': 'contact-email' } }}
      />
    </Paper>
  );
}
