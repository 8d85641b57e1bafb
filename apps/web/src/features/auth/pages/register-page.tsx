import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { FormAlert } from '../../../components/form/form-alert';
import { FormTextField } from '../../../components/form/form-text-field';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { paths } from '../../../config/paths';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { errorText } from '../../../lib/messages';
import type { RequestError } from '../../../lib/request-error';
import { applyServerErrors } from '../../../lib/server-errors';
import { useRegisterUser } from '../api/register-user';
import { useResendConfirmation } from '../api/resend-confirmation';
import type { RegisterFormValues } from '../schemas';

const FIELDS = ['email', 'password', 'password_confirm', 'name', 'join_code'] as const;

export default function RegisterPage() {
  const { t } = useTranslation();
  const register = useRegisterUser();
  const resend = useResendConfirmation();
  const [failure, setFailure] = useState<RequestError | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { control, handleSubmit, setError } = useForm<RegisterFormValues>({
    resolver: lazyResolver(() => import('../form-resolvers').then((m) => m.registerResolver)),
    defaultValues: { email: '', password: '', password_confirm: '', name: '', join_code: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const joinCode = values.join_code?.trim();
    try {
      await register.mutateAsync({
        email: values.email,
        password: values.password,
        name: values.name,
        ...(joinCode ? { join_code: joinCode } : {}),
      });
      setSentTo(values.email);
    } catch (error) {
      setFailure(applyServerErrors(error, setError, FIELDS));
    }
  });

  if (sentTo) {
    const onResend = async () => {
      try {
        await resend.mutateAsync({ email: sentTo });
        showSnackbar(t('register.resent'), 'success');
      } catch (error) {
        showSnackbar(errorText(t, error), 'error');
      }
    };
    return (
      <AuthCard title={t('register.sentTitle')}>
        <Typography sx={{ whiteSpace: 'pre-line', mb: 3 }} data-testid="register-sent">
          {t('register.sentBody', { email: sentTo })}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <Button variant="contained" component={RouterLink} to={paths.login.to()}>
            {t('registerConfirm.goLogin')}
          </Button>
          <Button variant="outlined" onClick={onResend} disabled={resend.isPending}>
            {resend.isPending ? t('common.sending') : t('register.resend')}
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('register.title')} subtitle={t('register.subtitle')}>
      <Box component="form" noValidate onSubmit={onSubmit}>
        <FormAlert>{failure && errorText(t, failure)}</FormAlert>
        <Stack spacing={2.5}>
          <FormTextField
            control={control}
            name="name"
            label={t('fields.name')}
            autoComplete="name"
            required
          />
          <FormTextField
            control={control}
            name="email"
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            required
          />
          <FormTextField
            control={control}
            name="password"
            label={t('fields.password')}
            type="password"
            autoComplete="new-password"
            helperText={t('fields.passwordHelp')}
            required
          />
          <FormTextField
            control={control}
            name="password_confirm"
            label={t('fields.passwordConfirm')}
            type="password"
            autoComplete="new-password"
            required
          />
          <FormTextField
            control={control}
            name="join_code"
            label={t('fields.joinCode')}
            autoComplete="off"
            helperText={t('fields.joinCodeHelp')}
          />
          <Button type="submit" variant="contained" size="large" disabled={register.isPending}>
            {register.isPending ? t('common.sending') : t('register.submit')}
          </Button>
        </Stack>
      </Box>
      <Typography variant="body2" sx={{ mt: 3 }}>
        {t('register.hasAccount')}{' '}
        <Link component={RouterLink} to={paths.login.to()}>
          {t('nav.login')}
        </Link>
      </Typography>
    </AuthCard>
  );
}
