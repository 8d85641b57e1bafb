// The external build keeps workers out of the bundle as separate same-origin files, which the server's CSP
// (`worker-src 'self' blob:`, no inline script) allows; the default build would inline them.
import 'altcha/external';
import 'altcha/altcha.css';
import 'altcha/i18n/en';
import 'altcha/i18n/ko';
import type { AltchaWidgetElement } from 'altcha/types/generic';
import type {} from 'altcha/types/react';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import ShaWorker from 'altcha/workers/sha?worker';
import { useEffect, useImperativeHandle, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { env } from '../../config/env';
import type { CaptchaHandle } from './captcha-field';

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

const CAPTCHA_CHALLENGE_PATH = '/api/v1/captcha/challenge';

interface CaptchaWidgetProps {
  onChange: (payload: string) => void;
  labelId: string;
  errorId?: string;
  /** Moves focus into the widget once it is there, for someone who ticked the stand-in box. */
  takeFocus: boolean;
  ref?: React.Ref<CaptchaHandle>;
}

/** The ALTCHA element itself; it starts solving as soon as it is on the page (`auto="onload"`). */
export default function CaptchaWidget({ onChange, labelId, errorId, takeFocus, ref }: CaptchaWidgetProps) {
  const { i18n } = useTranslation();
  const widget = useRef<AltchaWidgetElement>(null);
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
    // The element draws its own checkbox a frame or two after it is attached.
    let frame = 0;
    let tries = 0;
    const focusBox = () => {
      const box = (element.shadowRoot ?? element).querySelector<HTMLInputElement>('input[type="checkbox"]');
      tries += 1;
      if (box) box.focus();
      else if (tries < 30) frame = requestAnimationFrame(focusBox);
    };
    if (takeFocus) focusBox();
    return () => {
      cancelAnimationFrame(frame);
      element.removeEventListener('statechange', handle);
    };
  }, [takeFocus]);

  useImperativeHandle(ref, () => ({
    reset: () => {
      const element = widget.current;
      if (!element) return;
      element.reset();
      void element.verify();
    },
  }));

  return (
    <altcha-widget
      ref={widget}
      challenge={`${env.apiBase}${CAPTCHA_CHALLENGE_PATH}`}
      auto="onload"
      language={i18n.language === 'en' ? 'en' : 'ko'}
      name="captcha"
      aria-labelledby={labelId}
      aria-describedby={errorId}
      data-testid="captcha"
      style={{ '--altcha-max-width': '100%' }}
    />
  );
}
