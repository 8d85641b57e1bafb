import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { groupReceipt } from '../lib/receipt-format';
import { useSavedReceipts } from '../stores/saved-receipts';
import '../locales/anonymous-copy';

/**
 * A receipt shown in four groups, with a copy button and the opt-in to keep it on this device. Saving is
 * off by default: whoever can use this device could then open the report.
 */
export function ReceiptDisplay({ receipt }: { receipt: string }) {
  const { t } = useTranslation();
  const labelId = useId();
  const helpId = useId();
  const [copyState, setCopyState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const digits = receipt.replace(/\D/g, '');
  const isSaved = useSavedReceipts((state) => state.receipts.some((item) => item.receipt === digits));
  const grouped = groupReceipt(receipt);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(grouped);
      setCopyState('copied');
    } catch {
      setCopyState('failed');
    }
  };

  const toggleSave = (checked: boolean) => {
    const store = useSavedReceipts.getState();
    if (checked) store.save(receipt);
    else store.forget(receipt);
  };

  return (
    <Box>
      <Typography id={labelId} variant="body2" sx={{ fontWeight: 700, mb: 1 }}>
        {t('anonymous.receipt.numberLabel')}
      </Typography>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 1.5,
          p: 2,
          borderRadius: 2,
          bgcolor: 'action.hover',
        }}
      >
        <Typography
          aria-labelledby={labelId}
          data-testid="receipt-number"
          sx={{
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            fontSize: { xs: '1.25rem', sm: '1.6rem' },
            fontWeight: 700,
            letterSpacing: '0.06em',
            // Never shrunk below its width: on a phone the copy button wraps under the number instead.
            flex: '1 0 auto',
            whiteSpace: 'nowrap',
          }}
        >
          {grouped}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<ContentCopyIcon aria-hidden="true" />}
          onClick={() => void copy()}
        >
          {t('anonymous.receipt.copy')}
        </Button>
      </Box>
      <Typography
        variant="body2"
        role="status"
        color={copyState === 'failed' ? 'error' : 'text.secondary'}
        sx={{ mt: 1, minHeight: '1.5em' }}
      >
        {copyState === 'copied' && t('anonymous.receipt.copied')}
        {copyState === 'failed' && t('anonymous.receipt.copyFailed')}
      </Typography>
      <FormControlLabel
        sx={{ mt: 1 }}
        control={
          <Checkbox
            checked={isSaved}
            onChange={(event) => toggleSave(event.target.checked)}
            slotProps={{ input: { 'aria-describedby': helpId } }}
            data-testid="receipt-save"
          />
        }
        label={t('anonymous.receipt.saveOnDevice')}
      />
      <FormHelperText id={helpId} sx={{ mt: 0, ml: 4 }}>
        {t('anonymous.receipt.saveOnDeviceHelp')}
      </FormHelperText>
    </Box>
  );
}
