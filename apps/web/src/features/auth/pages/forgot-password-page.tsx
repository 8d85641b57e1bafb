import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { paths } from '../../../config/paths';
import { useSendResetEmail } from '../api/send-reset-email';
import { EmailForm } from '../components/email-form';

/** /forgot-password: the reset link only; a missing confirmation mail has its own page (/register/resend). */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const reset = useSendResetEmail();
  return (
    <AuthCard title={t('forgotPassword.title')} subtitle={t('forgotPassword.subtitle')}>
      <EmailForm
        idPrefix="reset"
        submitLabel={t('forgotPassword.submit')}
        successText={t('forgotPassword.sent')}
        send={reset.mutateAsync}
        isPending={reset.isPending}
      />
      <Stack spacing={1} sx={{ mt: 3 }}>
        <Link component={RouterLink} to={paths.registerResend.to()}>
          {t('forgotPassword.resendLink')}
        </Link>
        <Link component={RouterLink} to={paths.login.to()}>
          {t('forgotPassword.backToLogin')}
        </Link>
      </Stack>
    </AuthCard>
  );
}
