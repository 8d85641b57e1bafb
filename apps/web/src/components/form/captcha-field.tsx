import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface CaptchaHandle {
  /** A payload is single-use: after a failed login the widget must solve a fresh challenge. */
  reset: () => void;
}

interface CaptchaFieldProps {
  onChange: (payload: string) => void;
  error?: string;
  ref?: React.Ref<CaptchaHandle>;
}

// ALTCHA and its workers are 30 KB gzip: a first visit to /login or /receipt does not pay for them until the
// person starts on the form (docs/requirements.md R-PERF-2, the budget on what a first visit transfers).
const CaptchaWidget = lazy(() => import('./captcha-widget'));

/**
 * ALTCHA proof-of-work (R-ACC-4, R-EMP-6): solved in the browser, no third party sees the reporter. The widget loads
 * when the person first touches the form it sits in (a focus or a press anywhere in it), or ticks the stand-in
 * box, and solves at once; by the time the fields are filled it normally reads "확인됨". Plain HTML
 * (styles/plain-controls.css): the login page draws without MUI.
 */
export function CaptchaField({ onChange, error, ref }: CaptchaFieldProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const errorId = useId();
  const root = useRef<HTMLDivElement>(null);
  const standInRef = useRef<HTMLDivElement>(null);
  // A keyboard user may reach the stand-in while ALTCHA is still loading; the widget then takes the focus over.
  const focusInStandIn = useRef(false);
  const [armed, setArmed] = useState<'form' | 'box' | null>(null);

  useEffect(() => {
    if (armed) return;
    const scope: HTMLElement | Document = root.current?.closest('form') ?? document;
    // Reaching the stand-in itself (a tab or a tap onto its box) hands the focus on to ALTCHA's own box.
    const arm = (event: Event) => {
      const onStandIn = event.target instanceof Node && standInRef.current?.contains(event.target);
      setArmed((current) => current ?? (onStandIn ? 'box' : 'form'));
    };
    for (const type of ['focusin', 'pointerdown'] as const) scope.addEventListener(type, arm);
    return () => {
      for (const type of ['focusin', 'pointerdown'] as const) scope.removeEventListener(type, arm);
    };
  }, [armed]);

  const standIn = (
    <div ref={standInRef} className="captcha-standin" data-testid="captcha-standin">
      {/* A native box, as ALTCHA's own is: MUI's Checkbox and FormControlLabel would be 4 KB on every form. */}
      <label className="captcha-standin__label">
        <input
          type="checkbox"
          className="captcha-standin__box"
          checked={false}
          onChange={() => setArmed('box')}
          onFocus={() => {
            focusInStandIn.current = true;
          }}
          onBlur={() => {
            focusInStandIn.current = false;
          }}
        />
        {t('fields.captchaStart')}
      </label>
    </div>
  );

  return (
    <div ref={root} className={error ? 'plain-control plain-control--error' : 'plain-control'}>
      {/* Names ALTCHA's box through aria-labelledby: there is no native control for a <label> to point at. */}
      <p id={labelId} className="plain-control__label">
        {t('fields.captcha')}
      </p>
      {armed ? (
        <Suspense fallback={standIn}>
          <CaptchaWidget
            ref={ref}
            onChange={onChange}
            labelId={labelId}
            errorId={error ? errorId : undefined}
            takeFocus={armed === 'box' || focusInStandIn.current}
          />
        </Suspense>
      ) : (
        standIn
      )}
      {error && (
        <p id={errorId} className="plain-field__helper plain-control__helper">
          {error}
        </p>
      )}
    </div>
  );
}
