import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import GlobalStyles from '@mui/material/GlobalStyles';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { type CompanySettings, useRotateIntakeCode, useRotateJoinCode } from '../api/company-settings';
import { SettingsSection } from './settings-section';

const IntakeQr = lazy(() => import('./intake-qr'));

/** Printing this tab gives one A4 notice for a notice board: the title, the QR code, the link, the contact. */
function PrintNoticeStyles() {
  return (
    <GlobalStyles
      styles={{
        '.print-notice': { display: 'none' },
        '@media print': {
          '@page': { margin: '20mm' },
          'body *': { visibility: 'hidden' },
          '.print-notice, .print-notice *': { visibility: 'visible' },
          '.print-notice': {
            display: 'block !important',
            position: 'absolute',
            inset: 0,
            textAlign: 'center',
            color: '#000',
            background: '#fff',
          },
        },
      }}
    />
  );
}

function PrintNotice({ settings }: { settings: CompanySettings }) {
  const { t } = useTranslation();
  return (
    <div className="print-notice" aria-hidden="true">
      <p style={{ fontSize: '14pt', margin: '0 0 4mm' }}>{settings.name}</p>
      <h2 style={{ fontSize: '26pt', margin: '0 0 10mm' }}>{t('settings.joinCode.printTitle')}</h2>
      <div style={{ display: 'flex', justifyContent: 'center', marginBottom: '8mm' }}>
        <Suspense fallback={null}>
          <IntakeQr url={settings.intake_url} label="" size={280} />
        </Suspense>
      </div>
      <p style={{ fontSize: '16pt', fontWeight: 700, wordBreak: 'break-all' }}>{settings.intake_url}</p>
      <p style={{ fontSize: '13pt', lineHeight: 1.7, maxWidth: '150mm', margin: '6mm auto' }}>
        {t('settings.joinCode.printBody')}
      </p>
      {settings.notice_contact && (
        <p style={{ fontSize: '13pt' }}>
          {t('settings.joinCode.printContact', { contact: settings.notice_contact })}
        </p>
      )}
      <p style={{ fontSize: '10pt', marginTop: '12mm' }}>{t('settings.joinCode.printFooter')}</p>
    </div>
  );
}

export function JoinCodeTab({ settings }: { settings: CompanySettings }) {
  const { t } = useTranslation();
  const rotate = useRotateJoinCode();
  const rotateIntake = useRotateIntakeCode();
  const [confirming, setConfirming] = useState(false);
  const [confirmingIntake, setConfirmingIntake] = useState(false);
  const copy = (text: string) =>
    void navigator.clipboard
      ?.writeText(text)
      .then(() => showSnackbar(t('settings.joinCode.copied'), 'success'))
      .catch(() => undefined);
  return (
    <Stack spacing={3}>
      <PrintNoticeStyles />
      <SettingsSection title={t('settings.joinCode.heading')} intro={t('settings.joinCode.intro')}>
        <Typography component="p" variant="body2" color="text.secondary">
          {t('settings.joinCode.current')}
        </Typography>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, my: 1 }}>
          <Typography
            component="code"
            data-testid="join-code"
            sx={{
              fontFamily: 'monospace',
              fontSize: '1.5rem',
              letterSpacing: '0.08em',
              wordBreak: 'break-all',
            }}
          >
            {settings.join_code ?? t('settings.joinCode.none')}
          </Typography>
          {settings.join_code && (
            <Button size="small" variant="outlined" onClick={() => copy(settings.join_code!)}>
              {t('settings.joinCode.copy')}
            </Button>
          )}
        </Stack>
        <Button
          color="error"
          variant="outlined"
          onClick={() => setConfirming(true)}
          disabled={rotate.isPending}
        >
          {t('settings.joinCode.rotate')}
        </Button>
        {rotate.error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {rotate.error.message}
          </Alert>
        )}
      </SettingsSection>
      <SettingsSection
        title={t('settings.joinCode.intakeHeading')}
        intro={t('settings.joinCode.intakeIntro')}
      >
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: { sm: 'center' } }}>
          <Suspense fallback={<Box sx={{ width: 200, height: 200 }} />}>
            <IntakeQr
              url={settings.intake_url}
              label={t('settings.joinCode.qrLabel', { company: settings.name })}
            />
          </Suspense>
          <Stack spacing={2} sx={{ minWidth: 0 }}>
            <Link
              href={settings.intake_url}
              target="_blank"
              rel="noopener"
              data-testid="intake-url"
              sx={{ wordBreak: 'break-all', fontWeight: 600 }}
            >
              {settings.intake_url}
            </Link>
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
              <Button variant="outlined" size="small" onClick={() => copy(settings.intake_url)}>
                {t('settings.joinCode.copy')}
              </Button>
              <Button variant="contained" size="small" onClick={() => window.print()}>
                {t('settings.joinCode.print')}
              </Button>
            </Stack>
          </Stack>
        </Stack>
        <Typography component="p" variant="body2" color="text.secondary" sx={{ mt: 3, mb: 1 }}>
          {t('settings.joinCode.intakeRotateHelp')}
        </Typography>
        <Button
          color="error"
          variant="outlined"
          onClick={() => setConfirmingIntake(true)}
          disabled={rotateIntake.isPending}
          data-testid="rotate-intake"
        >
          {t('settings.joinCode.intakeRotate')}
        </Button>
        {rotateIntake.error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {rotateIntake.error.message}
          </Alert>
        )}
      </SettingsSection>
      <PrintNotice settings={settings} />
      <ConfirmDialog
        open={confirming}
        title={t('settings.joinCode.rotate')}
        body={t('settings.joinCode.rotateConfirm')}
        confirmLabel={t('settings.joinCode.rotate')}
        cancelLabel={t('settings.cancel')}
        onConfirm={() =>
          rotate.mutate(undefined, {
            onSuccess: () => showSnackbar(t('settings.joinCode.rotated'), 'success'),
          })
        }
        onClose={() => setConfirming(false)}
      />
      <ConfirmDialog
        open={confirmingIntake}
        title={t('settings.joinCode.intakeRotate')}
        body={t('settings.joinCode.intakeRotateConfirm')}
        confirmLabel={t('settings.joinCode.intakeRotate')}
        cancelLabel={t('settings.cancel')}
        onConfirm={() =>
          rotateIntake.mutate(undefined, {
            onSuccess: () => showSnackbar(t('settings.joinCode.intakeRotated'), 'success'),
          })
        }
        onClose={() => setConfirmingIntake(false)}
      />
    </Stack>
  );
}
