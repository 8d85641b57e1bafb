import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createIntake } from '../../../api/intake';
import { CaptchaField, type CaptchaHandle } from '../../../components/form/captcha-field';
import { errorText } from '../../../lib/messages';
import { startIntake } from '../../../stores/intake-token';
import '../../../locales/anonymous-copy';

/** A stranger's expired token, renewed with the intake code and a fresh captcha; the draft's text stays. */
export default function IntakeRenewal({ code }: { code: string }) {
  const { t } = useTranslation();
  const captchaRef = useRef<CaptchaHandle>(null);
  const [captcha, setCaptcha] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const renew = async () => {
    setFailure(null);
    setBusy(true);
    try {
      startIntake(await createIntake({ code, captcha }), code);
    } catch (error) {
      setFailure(errorText(t, error));
      captchaRef.current?.reset();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={2.5} data-testid="intake-renewal">
      <Alert severity="warning">
        <AlertTitle>{t('anonymous.gate.renewTitle')}</AlertTitle>
        {t('anonymous.gate.renewBody')}
      </Alert>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <CaptchaField ref={captchaRef} onChange={setCaptcha} />
      <Button
        variant="contained"
        size="large"
        disabled={!captcha || busy}
        onClick={() => void renew()}
        sx={{ alignSelf: 'flex-start' }}
      >
        {t('anonymous.gate.renew')}
      </Button>
    </Stack>
  );
}
