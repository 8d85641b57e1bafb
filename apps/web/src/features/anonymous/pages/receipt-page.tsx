import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { openReceipt } from '../../../api/receipt';
import { CaptchaField, type CaptchaHandle } from '../../../components/form/captcha-field';
import { PlainAlert } from '../../../components/form/form-alert';
import { PlainTextInput } from '../../../components/form/plain-text-input';
import { PageShell } from '../../../components/page-shell';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/messages';
import { normalizeReceipt, receiptTail } from '../../../lib/receipt-format';
import { isRequestError } from '../../../lib/request-error';
import { useReceiptSession } from '../../../stores/receipt-session';
import { type ReceiptPageState, useSavedReceipts } from '../../../stores/saved-receipts';
import '../../../locales/anonymous-copy';
import './receipt-page.css';
import { useDateTime } from '../../../lib/datetime';

/**
 * /receipt: the 16-digit receipt and the captcha open one anonymous report for two hours, with no account
 * (decision 0005). A wrong receipt is refused like a wrong password.
 */
export default function ReceiptPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const saved = useSavedReceipts((state) => state.receipts);
  const captchaRef = useRef<CaptchaHandle>(null);
  const wanted = (location.state as ReceiptPageState | null)?.savedAt;
  const [receipt, setReceipt] = useState(() => saved.find((item) => item.savedAt === wanted)?.receipt ?? '');
  const [captcha, setCaptcha] = useState('');
  const [checked, setChecked] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const normalized = normalizeReceipt(receipt);
  const receiptError = checked && !normalized ? t('anonymous.receipt.invalidFormat') : undefined;
  const captchaError = checked && !captcha ? t('validation.captchaRequired') : undefined;
  const { date: formatDate } = useDateTime();

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setChecked(true);
    setFailure(null);
    if (!normalized || !captcha) return;
    setBusy(true);
    try {
      const session = await openReceipt({ receipt: normalized, captcha });
      useReceiptSession.getState().open(session.report_id, session.expires);
      await navigate(`${paths.reportDetail.to(session.report_id)}/`);
    } catch (error) {
      setFailure(
        isRequestError(error, 'INVALID_CREDENTIALS') ? t('anonymous.receipt.wrong') : errorText(t, error),
      );
      // A captcha payload is single-use.
      setCaptcha('');
      captchaRef.current?.reset();
    } finally {
      setBusy(false);
    }
  };

  return (
    <PageShell
      title={t('anonymous.receipt.pageTitle')}
      subtitle={t('anonymous.receipt.pageSubtitle')}
      maxWidth="sm"
    >
      <div className="plain-surface auth-card">
        <form noValidate onSubmit={(event) => void submit(event)}>
          {failure && (
            <PlainAlert role="alert" className="form-alert" data-testid="receipt-error">
              {failure}
            </PlainAlert>
          )}
          <div className="plain-stack">
            <PlainTextInput
              id="receipt"
              label={t('anonymous.receipt.label')}
              required
              value={receipt}
              onChange={(event) => setReceipt(event.currentTarget.value)}
              autoComplete="off"
              inputMode="numeric"
              maxLength={24}
              spellCheck={false}
              className="receipt-input"
              data-testid="receipt-input"
              error={Boolean(receiptError)}
              helperText={receiptError ?? t('anonymous.receipt.helper')}
            />
            <CaptchaField ref={captchaRef} onChange={setCaptcha} error={captchaError} />
            <button
              type="submit"
              className="shell-button shell-button--contained shell-button--large"
              disabled={busy}
              data-testid="receipt-submit"
            >
              {busy ? t('anonymous.receipt.opening') : t('anonymous.receipt.open')}
            </button>
          </div>
        </form>
        <p className="plain-body2 plain-text-secondary receipt-note receipt-note--first">
          {t('anonymous.receipt.privacy')}
        </p>
        <p className="plain-body2 plain-text-secondary receipt-note">{t('anonymous.receipt.lost')}</p>
      </div>
      {saved.length > 0 && (
        <section aria-labelledby="saved-receipts-title" className="saved-receipts">
          <h2 id="saved-receipts-title" className="saved-receipts__title">
            {t('anonymous.receipt.savedTitle')}
          </h2>
          <ul className="saved-receipts__list">
            {saved.map((item) => (
              <li key={item.receipt} className="saved-receipts__item">
                <button
                  type="button"
                  className="shell-button shell-button--outlined"
                  onClick={() => setReceipt(item.receipt)}
                >
                  {t('anonymous.receipt.use', { last: receiptTail(item.receipt) })}
                </button>
                <p className="plain-body2 plain-text-secondary">
                  {t('anonymous.receipt.savedAt', { date: formatDate(item.savedAt) })}
                </p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </PageShell>
  );
}
