import { SNACKBAR_TIMEOUT_MS } from '@ansim/shared/constants';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../icons';
import { isDismissSwipe, useSnackbar } from './snackbar-store';

/**
 * The one global snackbar area (R-WEB-4, R-WEB-5). The live region stays mounted while empty so screen readers
 * announce a message the moment it is inserted. Plain HTML (styles/shell.css): it sits beside every screen,
 * the landing page included, which loads without MUI.
 */
export function GlobalSnackbar() {
  const { t } = useTranslation();
  const message = useSnackbar((state) => state.message);
  const severity = useSnackbar((state) => state.severity);
  const serial = useSnackbar((state) => state.serial);
  const hide = useSnackbar((state) => state.hide);
  const startX = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: serial restarts the timer for a repeated message.
  useEffect(() => {
    setOffset(0);
    if (message === null) return;
    const timer = window.setTimeout(hide, SNACKBAR_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [message, serial, hide]);

  const begin = (x: number) => {
    startX.current = x;
  };
  const move = (x: number) => {
    if (startX.current !== null) setOffset(x - startX.current);
  };
  const end = (x: number) => {
    if (startX.current === null) return;
    const dismissed = isDismissSwipe(startX.current, x);
    startX.current = null;
    if (dismissed) hide();
    else setOffset(0);
  };

  const severityClass = severity === 'info' ? '' : ` snackbar--${severity}`;

  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="snackbar-area">
      {message !== null && (
        <div
          data-testid="snackbar"
          className={`snackbar${severityClass}`}
          onPointerDown={(event) => begin(event.clientX)}
          onPointerMove={(event) => move(event.clientX)}
          onPointerUp={(event) => end(event.clientX)}
          onPointerCancel={() => {
            startX.current = null;
            setOffset(0);
          }}
          onTouchStart={(event) => begin(event.touches[0]?.clientX ?? 0)}
          onTouchMove={(event) => move(event.touches[0]?.clientX ?? 0)}
          onTouchEnd={(event) => end(event.changedTouches[0]?.clientX ?? 0)}
          style={{
            transform: `translateX(${offset}px)`,
            opacity: Math.max(0.3, 1 - Math.abs(offset) / 200),
          }}
        >
          {/* Inline, not in the stylesheet: the line breaks are part of the message (docs/requirements.md R-WEB-5). */}
          <p className="snackbar__message" style={{ whiteSpace: 'pre-line' }}>
            {message}
          </p>
          <button
            type="button"
            className="shell-icon-button shell-icon-button--small"
            onClick={hide}
            aria-label={t('snackbar.close')}
          >
            <Icon name="close" />
          </button>
        </div>
      )}
    </div>
  );
}
