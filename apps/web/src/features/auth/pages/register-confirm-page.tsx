import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { FormAlert } from '../../../components/form/form-alert';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/messages';
import { useConfirmEmail } from '../api/confirm-email';

export default function RegisterConfirmPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const confirm = useConfirmEmail();
  const started = useRef<string | null>(null);

  useEffect(() => {
    // A token is single-use: StrictMode's second effect run must not send it again.
    if (!token || started.current === token) return;
    started.current = token;
    confirm.mutate({ token });
  }, [token, confirm.mutate]);

  return (
    <AuthCard title={t('registerConfirm.title')}>
      {!token && <FormAlert>{t('registerConfirm.missingToken')}</FormAlert>}
      {token && confirm.isPending && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <CircularProgress size={24} aria-hidden="true" />
          <Typography role="status">{t('registerConfirm.confirming')}</Typography>
        </Stack>
      )}
      {confirm.isSuccess && (
        <>
          <FormAlert severity="success" data-testid="confirm-success">
            {t('registerConfirm.success', { email: confirm.data.email })}
          </FormAlert>
          <Button variant="contained" component={RouterLink} to={paths.login.to()}>
            {t('registerConfirm.goLogin')}
          </Button>
        </>
      )}
      {confirm.isError && (
        <FormAlert>{`${t('registerConfirm.failed')}\n${errorText(t, confirm.error)}`}</FormAlert>
      )}
      {(!token || confirm.isError) && (
        <Typography variant="body2">
          {t('registerConfirm.resendHint')}{' '}
          <Link component={RouterLink} to={paths.registerResend.to()}>
            {t('registerConfirm.resendLink')}
          </Link>
        </Typography>
      )}
    </AuthCard>
  );
}
