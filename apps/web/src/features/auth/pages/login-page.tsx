import type { LoginBody } from '@ansim/shared/auth';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { CaptchaField, type CaptchaHandle } from '../../../components/form/captcha-field';
import { FormAlert } from '../../../components/form/form-alert';
import { PlainTextField } from '../../../components/form/plain-text-field';
import { currentUserQuery } from '../../../components/header/current-user-query';
import { PageLoading } from '../../../components/page-loading';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { paths } from '../../../config/paths';
import { afterLoginPath } from '../../../lib/guards';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { lazyThemed } from '../../../lib/lazy-themed';
import { errorText, fieldMessage } from '../../../lib/messages';
import { type RequestError, toRequestError } from '../../../lib/request-error';
import { applyServerErrors } from '../../../lib/server-errors';
import { useLogin } from '../api/login';
import { useResendConfirmation } from '../api/resend-confirmation';

// The second step is an MUI form, loaded with the theme only once a password was right: the page itself draws
// without MUI, which was most of its start-up on a phone (decision 0022).
const MfaStep = lazyThemed(() => import('../components/mfa-step').then((module) => module.MfaStep));

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const captcha = useRef<CaptchaHandle>(null);
  const [failure, setFailure] = useState<RequestError | null>(null);
  const [step, setStep] = useState<'password' | 'mfa'>('password');
  const loginMutation = useLogin();
  const resend = useResendConfirmation();
  const { control, handleSubmit, setError, getValues } = useForm<LoginBody>({
    resolver: lazyResolver(() => import('../form-resolvers').then((m) => m.loginResolver)),
    defaultValues: { email: '', password: '', captcha: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const result = await loginMutation.mutateAsync(values);
      if ('mfaRequired' in result) {
        setStep('mfa');
        captcha.current?.reset();
        return;
      }
      await finish();
    } catch (error) {
      setFailure(
        applyServerErrors(error, setError, ['email', 'password', 'captcha']) ?? toRequestError(error),
      );
      captcha.current?.reset();
    }
  });

  // A manager without a second factor can open no manager page: enrolment comes first (docs/requirements.md R-ACC-7).
  const finish = async () => {
    showSnackbar(t('login.success'), 'success');
    const user = await queryClient.fetchQuery(currentUserQuery()).catch(() => null);
    const mustEnrol = user?.mfa.required && !user.mfa.totp && user.mfa.passkeys === 0;
    navigate(
      mustEnrol
        ? paths.accountSecurity.to()
        : afterLoginPath(searchParams.get('redirect'), window.location.origin, user?.role),
      { replace: true },
    );
  };

  const onRestart = () => {
    setStep('password');
    setFailure(null);
  };

  if (step === 'mfa') {
    return (
      <AuthCard title={t('login.title')} subtitle={t('mfa.login.subtitle')}>
        <Suspense fallback={<PageLoading />}>
          <MfaStep onDone={finish} onRestart={onRestart} />
        </Suspense>
      </AuthCard>
    );
  }

  const onResend = async () => {
    try {
      await resend.mutateAsync({ email: getValues('email') });
      showSnackbar(t('login.resent'), 'success');
    } catch (error) {
      showSnackbar(errorText(t, error), 'error');
    }
  };

  return (
    <AuthCard title={t('login.title')} subtitle={t('login.subtitle')}>
      <form noValidate onSubmit={onSubmit}>
        <FormAlert>{failure && errorText(t, failure)}</FormAlert>
        {failure?.code === 'EMAIL_NOT_CONFIRMED' && (
          <button
            type="button"
            className="shell-button shell-button--outlined login-resend"
            onClick={onResend}
            disabled={resend.isPending}
          >
            {resend.isPending ? t('common.sending') : t('login.resend')}
          </button>
        )}
        <div className="plain-stack">
          <PlainTextField
            control={control}
            name="email"
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            required
          />
          <PlainTextField
            control={control}
            name="password"
            label={t('fields.password')}
            type="password"
            autoComplete="current-password"
            required
          />
          <Controller
            control={control}
            name="captcha"
            render={({ field, fieldState }) => (
              <CaptchaField
                ref={captcha}
                onChange={(payload) => field.onChange(payload)}
                error={fieldMessage(t, fieldState.error?.message)}
              />
            )}
          />
          <button
            type="submit"
            className="shell-button shell-button--contained shell-button--large"
            disabled={loginMutation.isPending}
          >
            {loginMutation.isPending ? t('common.sending') : t('login.submit')}
          </button>
        </div>
      </form>
      <div className="login-links">
        <RouterLink className="plain-link" to={paths.forgotPassword.to()}>
          {t('login.forgot')}
        </RouterLink>
        <p className="plain-body2">
          {t('login.noAccount')}{' '}
          <RouterLink className="plain-link" to={paths.register.to()}>
            {t('login.register')}
          </RouterLink>
        </p>
      </div>
    </AuthCard>
  );
}
