import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { paths } from '../../../config/paths';
import { useResendConfirmation } from '../api/resend-confirmation';
import { EmailForm } from '../components/email-form';

/** /register/resend: a new confirmation mail for an account that has not been confirmed yet. */
export default function RegisterResendPage() {
  const { t } = useTranslation();
  const resend = useResendConfirmation();
  return (
    <AuthCard title={t('registerResend.title')} subtitle={t('registerResend.subtitle')}>
      <EmailForm
        idPrefix="resend"
        submitLabel={t('registerResend.submit')}
        successText={t('registerResend.sent')}
        send={resend.mutateAsync}
        isPending={resend.isPending}
      />
      <Stack spacing={1} sx={{ mt: 3 }}>
        <Link component={RouterLink} to={paths.forgotPassword.to()}>
          {t('registerResend.forgotLink')}
        </Link>
        <Link component={RouterLink} to={paths.login.to()}>
          {t('forgotPassword.backToLogin')}
        </Link>
      </Stack>
    </AuthCard>
  );
}
