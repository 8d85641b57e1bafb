import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { createIntake, useIntakeInfo } from '../../../api/intake';
import { AnonymityFacts } from '../../../components/anonymity-facts';
import { FailureAlert } from '../../../components/failure-alert';
import { CaptchaField, type CaptchaHandle } from '../../../components/form/captcha-field';
import { PageShell } from '../../../components/page-shell';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/messages';
import { isRequestError } from '../../../lib/request-error';
import { isSessionUsable, startIntake, useIntakeToken } from '../../../stores/intake-token';
import { useReportForm } from '../../../stores/report-form-store';
import '../../../locales/anonymous-copy';

/**
 * /c/{code}: a company's public intake link. Anyone can file an anonymous report here without an account;
 * the captcha and the server's per-address limits stand in for the login (decision 0005).
 */
export default function IntakePage() {
  const { t } = useTranslation();
  const { code = '' } = useParams();
  const navigate = useNavigate();
  const captchaRef = useRef<CaptchaHandle>(null);
  const [captcha, setCaptcha] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const draftType = useReportForm((state) => state.form.report_type);
  const session = useIntakeToken((state) => state.session);
  const info = useIntakeInfo(code);
  const canContinue = draftType === 'anonym' && isSessionUsable(session) && session?.code === code;

  const start = async () => {
    setFailure(null);
    setBusy(true);
    try {
      const grant = await createIntake({ code, captcha });
      const store = useReportForm.getState();
      // Another kind of draft on this device is not carried into an anonymous one.
      if (store.form.report_type && store.form.report_type !== 'anonym') store.reset();
      store.setReportType('anonym');
      useIntakeToken.getState().dismissFilesLost();
      startIntake(grant, code);
      await navigate(paths.reportT.to());
    } catch (error) {
      setFailure(errorText(t, error));
      setCaptcha('');
      captchaRef.current?.reset();
    } finally {
      setBusy(false);
    }
  };

  if (info.status === 'pending') {
    return (
      <PageShell title={t('anonymous.intake.loading')} maxWidth="md">
        <Stack spacing={2} aria-busy="true">
          <Skeleton variant="rounded" height={96} />
          <Skeleton variant="rounded" height={200} />
        </Stack>
      </PageShell>
    );
  }
  if (info.status === 'error') {
    const notFound = isRequestError(info.error, 'NOT_FOUND');
    return (
      <PageShell title={notFound ? t('anonymous.intake.notFoundTitle') : t('routeError.title')} maxWidth="sm">
        <Typography sx={{ mb: 3 }} data-testid="intake-not-found">
          {notFound ? t('anonymous.intake.notFoundBody') : errorText(t, info.error)}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <Button variant="contained" component={RouterLink} to={paths.index.to()}>
            {t('notFound.home')}
          </Button>
          <Button variant="outlined" component={RouterLink} to={paths.receipt.to()}>
            {t('anonymous.receiptLink')}
          </Button>
        </Stack>
      </PageShell>
    );
  }

  const company = info.data.company.name;
  return (
    <PageShell
      title={t('anonymous.intake.title', { company })}
      subtitle={t('anonymous.intake.subtitle')}
      maxWidth="md"
    >
      <Stack spacing={3}>
        {(info.data.help_text || info.data.notice_contact) && (
          <Paper
            variant="outlined"
            component="section"
            aria-labelledby="intake-help"
            sx={{ p: { xs: 2, sm: 3 } }}
          >
            <Typography id="intake-help" variant="h2" sx={{ fontSize: '1.15rem', mb: 1 }}>
              {t('anonymous.intake.helpTitle')}
            </Typography>
            {info.data.help_text && (
              <Typography sx={{ whiteSpace: 'pre-line' }} data-testid="intake-help-text">
                {info.data.help_text}
              </Typography>
            )}
            {info.data.notice_contact && (
              <Typography sx={{ mt: info.data.help_text ? 1.5 : 0 }} data-testid="intake-notice-contact">
                <strong>{t('anonymous.intake.contactLabel')}</strong> {info.data.notice_contact}
              </Typography>
            )}
          </Paper>
        )}
        <AnonymityFacts />
        <Paper
          variant="outlined"
          component="section"
          aria-labelledby="intake-how"
          sx={{ p: { xs: 2, sm: 3 } }}
        >
          <Typography id="intake-how" variant="h2" sx={{ fontSize: '1.15rem', mb: 1 }}>
            {t('anonymous.intake.howTitle')}
          </Typography>
          <Typography sx={{ mb: 3 }}>{t('anonymous.intake.how')}</Typography>
          {canContinue ? (
            <Button variant="contained" size="large" component={RouterLink} to={paths.reportT.to()}>
              {t('anonymous.intake.continue')}
            </Button>
          ) : (
            <Stack spacing={2}>
              {failure && <FailureAlert>{failure}</FailureAlert>}
              <CaptchaField ref={captchaRef} onChange={setCaptcha} />
              <Box>
                <Button
                  variant="contained"
                  size="large"
                  disabled={!captcha || busy}
                  onClick={() => void start()}
                  data-testid="intake-start"
                >
                  {busy ? t('anonymous.intake.starting') : t('anonymous.intake.start')}
                </Button>
                {!captcha && (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                    {t('anonymous.intake.captchaNeeded')}
                  </Typography>
                )}
              </Box>
            </Stack>
          )}
        </Paper>
        <Typography variant="body2" color="text.secondary">
          {t('anonymous.intake.alreadyFiled')}{' '}
          <Link component={RouterLink} to={paths.receipt.to()}>
            {t('anonymous.receiptLink')}
          </Link>
        </Typography>
      </Stack>
    </PageShell>
  );
}
