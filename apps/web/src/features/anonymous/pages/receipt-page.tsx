import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { openReceipt } from '../../../api/receipt';
import { FailureAlert } from '../../../components/failure-alert';
import { CaptchaField, type CaptchaHandle } from '../../../components/form/captcha-field';
import { PageShell } from '../../../components/page-shell';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/messages';
import { normalizeReceipt, receiptTail } from '../../../lib/receipt-format';
import { isRequestError } from '../../../lib/request-error';
import { useReceiptSession } from '../../../stores/receipt-session';
import { type ReceiptPageState, useSavedReceipts } from '../../../stores/saved-receipts';
import '../../../locales/anonymous-copy';
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
      {/* What Paper's outlined variant draws, without its chunk on a page kept to 150 KB (issue 16). */}
      <Box
        sx={{
          p: { xs: 2.5, sm: 4 },
          bgcolor: 'background.paper',
          color: 'text.primary',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
        }}
      >
        <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
          {failure && (
            <FailureAlert sx={{ mb: 2 }} data-testid="receipt-error">
              {failure}
            </FailureAlert>
          )}
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
            {/* OutlinedInput rather than TextField: TextField brings the whole Select along, and this page
                is reached from a mail link on a phone, so it should stay light. */}
            <FormControl required fullWidth error={Boolean(receiptError)}>
              <InputLabel htmlFor="receipt">{t('anonymous.receipt.label')}</InputLabel>
              <OutlinedInput
                id="receipt"
                label={t('anonymous.receipt.label')}
                value={receipt}
                onChange={(event) => setReceipt(event.target.value)}
                autoComplete="off"
                aria-describedby="receipt-helper"
                inputProps={{
                  inputMode: 'numeric',
                  maxLength: 24,
                  spellCheck: false,
                  'data-testid': 'receipt-input',
                  style: {
                    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                    letterSpacing: '0.08em',
                  },
                }}
              />
              <FormHelperText id="receipt-helper">
                {receiptError ?? t('anonymous.receipt.helper')}
              </FormHelperText>
            </FormControl>
            <CaptchaField ref={captchaRef} onChange={setCaptcha} error={captchaError} />
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={busy}
              data-testid="receipt-submit"
            >
              {busy ? t('anonymous.receipt.opening') : t('anonymous.receipt.open')}
            </Button>
          </Box>
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
          {t('anonymous.receipt.privacy')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('anonymous.receipt.lost')}
        </Typography>
      </Box>
      {saved.length > 0 && (
        <Box component="section" aria-labelledby="saved-receipts-title" sx={{ mt: 4 }}>
          <Typography id="saved-receipts-title" variant="h2" sx={{ fontSize: '1.1rem', mb: 1.5 }}>
            {t('anonymous.receipt.savedTitle')}
          </Typography>
          <Box
            component="ul"
            sx={{ display: 'flex', flexDirection: 'column', gap: 1, listStyle: 'none', p: 0, m: 0 }}
          >
            {saved.map((item) => (
              <Box
                component="li"
                key={item.receipt}
                sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}
              >
                <Button variant="outlined" onClick={() => setReceipt(item.receipt)}>
                  {t('anonymous.receipt.use', { last: receiptTail(item.receipt) })}
                </Button>
                <Typography variant="body2" color="text.secondary">
                  {t('anonymous.receipt.savedAt', { date: formatDate(item.savedAt) })}
                </Typography>
              </Box>
            ))}
          </Box>
        </Box>
      )}
    </PageShell>
  );
}
