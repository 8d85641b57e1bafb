// The external build keeps workers out of the bundle as separate same-origin files, which the server's CSP
// (`worker-src 'self' blob:`, no inline script) allows; the default build would inline them.
import 'altcha/external';
import 'altcha/altcha.css';
import 'altcha/i18n/en';
import 'altcha/i18n/ko';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import type { AltchaWidgetElement } from 'altcha/types/generic';
import type {} from 'altcha/types/react';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import ShaWorker from 'altcha/workers/sha?worker';
import { useEffect, useId, useImperativeHandle, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { env } from '../../../config/env';

for (const algorithm of ['PBKDF2/SHA-256', 'PBKDF2/SHA-384', 'PBKDF2/SHA-512']) {
  $altcha.algorithms.set(algorithm, () => new Pbkdf2Worker());
}
for (const algorithm of ['SHA-256', 'SHA-384', 'SHA-512']) {
  $altcha.algorithms.set(algorithm, () => new ShaWorker());
}

// The stock Korean footer names ALTCHA twice ("ALTCHA에서 보호됨 ALTCHA"); it is said once here.
const korean = $altcha.i18n.get('ko');
if (korean) {
  $altcha.i18n.set('ko', {
    ...korean,
    footer:
      '<a href="https://altcha.org/" tabindex="-1" target="_blank" aria-label="ALTCHA (공식 웹사이트)">ALTCHA</a>로 보호됨',
  });
}

export const CAPTCHA_CHALLENGE_PATH = '/api/v1/captcha/challenge';

export interface CaptchaHandle {
  /** A payload is single-use: after a failed login the widget must solve a fresh challenge. */
  reset: () => void;
}

interface CaptchaFieldProps {
  onChange: (payload: string) => void;
  error?: string;
  ref?: React.Ref<CaptchaHandle>;
}

/**
 * ALTCHA proof-of-work (DESIGN §2): solved in the browser, no third party sees the reporter. It starts
 * solving as soon as it loads, so a person normally finds it already verified.
 */
export function CaptchaField({ onChange, error, ref }: CaptchaFieldProps) {
  const { t, i18n } = useTranslation();
  const widget = useRef<AltchaWidgetElement>(null);
  const labelId = useId();
  const errorId = useId();
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    const element = widget.current;
    if (!element) return;
    const handle = (event: Event) => {
      const detail = (event as CustomEvent<{ state?: string; payload?: string | null }>).detail;
      onChangeRef.current(detail.state === 'verified' && detail.payload ? detail.payload : '');
    };
    element.addEventListener('statechange', handle);
    return () => element.removeEventListener('statechange', handle);
  }, []);

  useImperativeHandle(ref, () => ({
    reset: () => {
      const element = widget.current;
      if (!element) return;
      element.reset();
      void element.verify();
    },
  }));

  return (
    <FormControl error={Boolean(error)} fullWidth>
      <FormLabel id={labelId} sx={{ mb: 1, fontSize: '0.9rem' }}>
        {t('fields.captcha')}
      </FormLabel>
      <altcha-widget
        ref={widget}
        challenge={`${env.apiBase}${CAPTCHA_CHALLENGE_PATH}`}
        auto="onload"
        language={i18n.language === 'en' ? 'en' : 'ko'}
        name="captcha"
        aria-labelledby={labelId}
        aria-describedby={error ? errorId : undefined}
        data-testid="captcha"
        style={{ '--altcha-max-width': '100%' }}
      />
      {error && <FormHelperText id={errorId}>{error}</FormHelperText>}
    </FormControl>
  );
}
