import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { FormAlert } from '../../../components/form/form-alert';
import { FormTextField } from '../../../components/form/form-text-field';
import { paths } from '../../../config/paths';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { useLoginState } from '../../../lib/login-state';
import { errorText } from '../../../lib/messages';
import type { RequestError } from '../../../lib/request-error';
import { applyServerErrors } from '../../../lib/server-errors';
import { useResetPassword } from '../api/reset-password';
import type { ResetPasswordFormValues } from '../schemas';

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const reset = useResetPassword();
  const [failure, setFailure] = useState<RequestError | null>(null);
  const { control, handleSubmit, setError } = useForm<ResetPasswordFormValues>({
    resolver: lazyResolver(() => import('../form-resolvers').then((m) => m.resetPasswordResolver)),
    defaultValues: { password: '', password_confirm: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await reset.mutateAsync({ token, password: values.password });
      // The server ends every session of the user, this one included.
      useLoginState.getState().clear();
    } catch (error) {
      setFailure(applyServerErrors(error, setError, ['password']));
    }
  });

  const requestNew = (
    <Link component={RouterLink} to={paths.forgotPassword.to()}>
      {t('resetPassword.requestNew')}
    </Link>
  );

  if (!token) {
    return (
      <AuthCard title={t('resetPassword.title')}>
        <FormAlert>{t('resetPassword.missingToken')}</FormAlert>
        {requestNew}
      </AuthCard>
    );
  }

  if (reset.isSuccess) {
    return (
      <AuthCard title={t('resetPassword.title')}>
        <FormAlert severity="success">{t('resetPassword.success')}</FormAlert>
        <Button variant="contained" component={RouterLink} to={paths.login.to()}>
          {t('registerConfirm.goLogin')}
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('resetPassword.title')} subtitle={t('resetPassword.subtitle')}>
      <Box component="form" noValidate onSubmit={onSubmit}>
        <FormAlert>{failure && errorText(t, failure)}</FormAlert>
        {failure?.code === 'INVALID_TOKEN' && <Box sx={{ mb: 2 }}>{requestNew}</Box>}
        <Stack spacing={2.5}>
          <FormTextField
            control={control}
            name="password"
            label={t('fields.newPassword')}
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
          <Button type="submit" variant="contained" size="large" disabled={reset.isPending}>
            {reset.isPending ? t('common.sending') : t('resetPassword.submit')}
          </Button>
        </Stack>
      </Box>
    </AuthCard>
  );
}
