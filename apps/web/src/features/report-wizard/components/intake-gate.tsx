import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { noteIntakeFailure } from '../../../api/draft-headers';
import { useOwnFiles } from '../../../api/evidence-files';
import { createIntake } from '../../../api/intake';
import { paths } from '../../../config/paths';
import { useIsLoggedIn } from '../../../lib/login-state';
import { errorText } from '../../../lib/messages';
import { isSessionUsable, startIntake, useIntakeToken } from '../../../stores/intake-token';
import '../../../locales/anonymous-copy';

// The captcha widget is loaded only when a stranger's token has run out, not with every wizard step.
const IntakeRenewal = lazy(() => import('./intake-renewal'));

/**
 * Wraps the anonymous wizard: makes sure the draft holds a live intake token before any file is sent. A
 * member gets one at once; a visitor from `/c/{code}` renews theirs with a captcha. When a token ran out,
 * the draft's files went with it, and the reporter is told to attach them again.
 */
export function IntakeGate({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation();
  const isLoggedIn = useIsLoggedIn();
  const session = useIntakeToken((state) => state.session);
  const code = useIntakeToken((state) => state.code);
  const filesLost = useIntakeToken((state) => state.filesLost);
  const usable = isSessionUsable(session);
  const memberGrant = useMutation({
    mutationFn: () => createIntake(),
    onSuccess: (grant) => startIntake(grant, null),
  });

  // A token past its expiry by this device's clock is as good as gone, files included.
  useEffect(() => {
    if (session && !usable) useIntakeToken.getState().expire();
  }, [session, usable]);

  const needsMemberGrant = !usable && !code && isLoggedIn;
  const { mutate, isIdle } = memberGrant;
  useEffect(() => {
    if (needsMemberGrant && isIdle) mutate();
  }, [needsMemberGrant, isIdle, mutate]);

  if (usable) {
    return (
      <>
        <FilesLostWatch />
        {filesLost && (
          <Alert
            severity="warning"
            sx={{ mb: 3 }}
            onClose={() => useIntakeToken.getState().dismissFilesLost()}
            data-testid="intake-files-lost"
          >
            <AlertTitle>{t('anonymous.gate.filesLostTitle')}</AlertTitle>
            {t('anonymous.gate.filesLost')}
          </Alert>
        )}
        {children}
      </>
    );
  }
  if (code) {
    return (
      <Suspense fallback={<CircularProgress aria-label={t('common.loading')} />}>
        <IntakeRenewal code={code} />
      </Suspense>
    );
  }
  if (isLoggedIn) {
    // A failed grant, or a granted token the server refused at once, waits for the reporter to try again
    // rather than asking the server in a loop.
    if (memberGrant.isError || memberGrant.isSuccess) {
      return (
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => memberGrant.reset()}>
              {t('anonymous.gate.retry')}
            </Button>
          }
        >
          {t('anonymous.gate.failed')} {memberGrant.error ? errorText(t, memberGrant.error) : ''}
        </Alert>
      );
    }
    return (
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status">
        <CircularProgress size={24} aria-hidden="true" />
        <Typography>{t('anonymous.gate.preparing')}</Typography>
      </Stack>
    );
  }
  return (
    <Alert
      severity="info"
      action={
        <Button color="inherit" component={RouterLink} to={paths.login.to(paths.reportTA.to())}>
          {t('anonymous.gate.login')}
        </Button>
      }
    >
      {t('anonymous.gate.noAccess')}
    </Alert>
  );
}

/** The file list answering 401 is how a reload finds out that the server forgot the token. */
function FilesLostWatch() {
  const files = useOwnFiles();
  useEffect(() => {
    if (files.error) noteIntakeFailure(files.error);
  }, [files.error]);
  return null;
}
