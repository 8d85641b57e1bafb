import type { CompanyInvitationView } from '@ansim/shared/company-invitations';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { AuthCard } from '../../components/auth-card';
import { FormAlert } from '../../components/form/form-alert';
import { FormTextField } from '../../components/form/form-text-field';
import { currentUserQuery, useCurrentUser } from '../../components/header/use-current-user';
import { PageLoading } from '../../components/page-loading';
import { showSnackbar } from '../../components/snackbar/snackbar-store';
import { paths } from '../../config/paths';
import { lazyResolver } from '../../lib/lazy-resolver';
import { useIsLoggedIn } from '../../lib/login-state';
import { errorText } from '../../lib/messages';
import { type RequestError, toRequestError } from '../../lib/request-error';
import { applyServerErrors } from '../../lib/server-errors';
import { useAcceptCompanyInvitation, useCompanyInvitation } from './api/company-invitation';
import type { NewAccountValues } from './new-account-resolver';

/** After joining, a case handler enrols a second factor first; with one already, the case list opens. */
function useFinish() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async () => {
    showSnackbar(t('join.accepted'), 'success');
    const user = await queryClient.fetchQuery(currentUserQuery()).catch(() => null);
    const mustEnrol = user?.mfa.required && !user.mfa.totp && user.mfa.passkeys === 0;
    navigate(mustEnrol ? paths.accountSecurity.to() : paths.manager.to(), { replace: true });
  };
}

function NewAccountForm({ token, invitation }: { token: string; invitation: CompanyInvitationView }) {
  const { t } = useTranslation();
  const accept = useAcceptCompanyInvitation(token);
  const finish = useFinish();
  const [failure, setFailure] = useState<RequestError | null>(null);
  const { control, handleSubmit, setError } = useForm<NewAccountValues>({
    resolver: lazyResolver(() => import('./new-account-resolver').then((m) => m.newAccountResolver)),
    defaultValues: { name: '', password: '', password_confirm: '' },
  });
  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await accept.mutateAsync({ name: values.name, password: values.password });
      await finish();
    } catch (error) {
      setFailure(applyServerErrors(error, setError, ['name', 'password']));
    }
  });
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <FormAlert>{failure && errorText(t, failure)}</FormAlert>
      <Stack spacing={2.5}>
        <FormTextField control={control} name="name" label={t('fields.name')} autoComplete="name" required />
        <Typography variant="body2" color="text.secondary">
          {t('join.emailIs', { email: invitation.email })}
        </Typography>
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
        <Button type="submit" variant="contained" size="large" disabled={accept.isPending}>
          {accept.isPending ? t('common.sending') : t('join.createAndAccept')}
        </Button>
      </Stack>
    </Box>
  );
}

function ExistingAccount({ token, invitation }: { token: string; invitation: CompanyInvitationView }) {
  const { t } = useTranslation();
  const isLoggedIn = useIsLoggedIn();
  const { data: user, isPending } = useCurrentUser();
  const accept = useAcceptCompanyInvitation(token);
  const finish = useFinish();
  const [failure, setFailure] = useState<RequestError | null>(null);

  if (!isLoggedIn)
    return (
      <Stack spacing={2}>
        <Typography>{t('join.loginFirst', { email: invitation.email })}</Typography>
        <Button variant="contained" component={RouterLink} to={paths.login.to(paths.join.to(token))}>
          {t('join.loginToAccept')}
        </Button>
      </Stack>
    );
  if (isPending) return <PageLoading />;
  if (user && user.email !== invitation.email)
    return (
      <Stack spacing={2}>
        <FormAlert>{t('join.wrongAccount', { email: invitation.email, current: user.email })}</FormAlert>
        <Button variant="outlined" component={RouterLink} to={paths.logout.to()}>
          {t('nav.logout')}
        </Button>
      </Stack>
    );
  const onAccept = async () => {
    setFailure(null);
    try {
      await accept.mutateAsync({});
      await finish();
    } catch (error) {
      setFailure(toRequestError(error));
    }
  };
  return (
    <Stack spacing={2}>
      <FormAlert>{failure && errorText(t, failure)}</FormAlert>
      <Typography>{t('join.acceptAs', { email: invitation.email })}</Typography>
      <Button variant="contained" size="large" onClick={onAccept} disabled={accept.isPending}>
        {accept.isPending ? t('common.sending') : t('join.accept')}
      </Button>
    </Stack>
  );
}

/** `/join/{token}`: the mailed link of a company invitation (docs/requirements.md R-CO-3). */
export default function JoinPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const invitation = useCompanyInvitation(token);

  if (invitation.isPending) return <PageLoading />;
  if (invitation.error) {
    const error = toRequestError(invitation.error);
    const text =
      error.status === 404
        ? t('join.notFound')
        : error.status === 410
          ? t('join.expired')
          : errorText(t, error);
    return (
      <AuthCard title={t('join.title')}>
        <FormAlert>{text}</FormAlert>
        <Button variant="outlined" component={RouterLink} to={paths.index.to()}>
          {t('notFound.home')}
        </Button>
      </AuthCard>
    );
  }
  const view = invitation.data;
  return (
    <AuthCard
      title={t('join.title')}
      subtitle={t('join.subtitle', { company: view.company_name, role: t(`roles.${view.role}`) })}
    >
      {view.has_account ? (
        <ExistingAccount token={token} invitation={view} />
      ) : (
        <NewAccountForm token={token} invitation={view} />
      )}
    </AuthCard>
  );
}
