import { emailOnlyBody } from '@ansim/shared/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/messages';
import type { RequestError } from '../../../lib/request-error';
import { useResendConfirmation } from '../api/resend-confirmation';
import { useSendResetEmail } from '../api/send-reset-email';
import { AuthCard } from '../components/auth-card';
import { FormAlert } from '../components/form-alert';
import { FormTextField } from '../components/form-text-field';
import { applyServerErrors } from '../lib/server-errors';

type EmailValues = { email: string };

/** One e-mail form, used for the reset link and for a new confirmation mail. */
function EmailForm({
  idPrefix,
  submitLabel,
  successText,
  send,
  isPending,
}: {
  idPrefix: string;
  submitLabel: string;
  successText: string;
  send: (values: EmailValues) => Promise<unknown>;
  isPending: boolean;
}) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<RequestError | null>(null);
  const [sent, setSent] = useState(false);
  const { control, handleSubmit, setError } = useForm<EmailValues>({
    resolver: zodResolver(emailOnlyBody),
    defaultValues: { email: '' },
  });
  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    setSent(false);
    try {
      await send(values);
      setSent(true);
    } catch (error) {
      setFailure(applyServerErrors(error, setError, ['email']));
    }
  });
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <FormAlert>{failure && errorText(t, failure)}</FormAlert>
      {sent && <FormAlert severity="success">{successText}</FormAlert>}
      <Stack spacing={2.5}>
        <FormTextField
          control={control}
          name="email"
          id={`${idPrefix}-email`}
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          required
        />
        <Button type="submit" variant="contained" size="large" disabled={isPending}>
          {isPending ? t('common.sending') : submitLabel}
        </Button>
      </Stack>
    </Box>
  );
}

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const reset = useSendResetEmail();
  const resend = useResendConfirmation();
  return (
    <AuthCard title={t('forgotPassword.title')} subtitle={t('forgotPassword.subtitle')}>
      <EmailForm
        idPrefix="reset"
        submitLabel={t('forgotPassword.submit')}
        successText={t('forgotPassword.sent')}
        send={reset.mutateAsync}
        isPending={reset.isPending}
      />
      <Divider sx={{ my: 4 }} />
      <Typography variant="h2" id="resend" sx={{ fontSize: '1.1rem', mb: 2 }}>
        {t('forgotPassword.resendTitle')}
      </Typography>
      <EmailForm
        idPrefix="resend"
        submitLabel={t('forgotPassword.resendSubmit')}
        successText={t('forgotPassword.resent')}
        send={resend.mutateAsync}
        isPending={resend.isPending}
      />
      <Link component={RouterLink} to={paths.login.to()} sx={{ display: 'inline-block', mt: 3 }}>
        {t('forgotPassword.backToLogin')}
      </Link>
    </AuthCard>
  );
}
