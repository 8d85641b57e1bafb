import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
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
// person starts on the form (issue 16's budget on what a first visit transfers).
const CaptchaWidget = lazy(() => import('./captcha-widget'));

/** Height of ALTCHA's own box, so nothing below moves when it replaces the stand-in. */
const WIDGET_MIN_HEIGHT = 73;

/**
 * ALTCHA proof-of-work (DESIGN §2): solved in the browser, no third party sees the reporter. The widget loads
 * when the person first touches the form it sits in (a focus or a press anywhere in it), or ticks the stand-in
 * box, and solves at once; by the time the fields are filled it normally reads "확인됨".
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
    <Box
      ref={standInRef}
      onFocus={() => {
        focusInStandIn.current = true;
      }}
      onBlur={() => {
        focusInStandIn.current = false;
      }}
      data-testid="captcha-standin"
      sx={{
        minHeight: WIDGET_MIN_HEIGHT,
        px: 0.5,
        display: 'flex',
        alignItems: 'center',
      }}
    >
      {/* A native box, as ALTCHA's own is: MUI's Checkbox and FormControlLabel would be 4 KB on every form. */}
      <Box
        component="label"
        sx={{
          display: 'inline-flex',
          alignItems: 'center',
          gap: 1.5,
          py: 1,
          cursor: 'pointer',
          typography: 'body1',
        }}
      >
        <Box
          component="input"
          type="checkbox"
          checked={false}
          onChange={() => setArmed('box')}
          sx={{
            width: 20,
            height: 20,
            m: 0,
            ml: 1,
            cursor: 'pointer',
            accentColor: (theme) => theme.palette.primary.main,
          }}
        />
        {t('fields.captchaStart')}
      </Box>
    </Box>
  );

  return (
    <FormControl ref={root} error={Boolean(error)} fullWidth>
      <FormLabel id={labelId} sx={{ mb: 1, fontSize: '0.9rem' }}>
        {t('fields.captcha')}
      </FormLabel>
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
      {error && <FormHelperText id={errorId}>{error}</FormHelperText>}
    </FormControl>
  );
}
