import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ReceiptDisplay } from '../../../components/receipt-display';
import '../../../locales/anonymous-copy';

/**
 * The receipt, once, right after an anonymous submission. It closes only through its button: a stray click
 * or Escape must not make the one way back into the report disappear. Leaving the page asks first.
 */
export function ReceiptDialog({ receipt, onContinue }: { receipt: string | null; onContinue: () => void }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const open = receipt !== null;

  useEffect(() => {
    if (!open) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [open]);

  return (
    <Dialog
      open={open}
      fullScreen={fullScreen}
      maxWidth="sm"
      fullWidth
      aria-labelledby="receipt-dialog-title"
      aria-describedby="receipt-dialog-intro"
      data-testid="receipt-dialog"
    >
      <DialogTitle id="receipt-dialog-title" component="h2" sx={{ fontSize: '1.35rem', fontWeight: 700 }}>
        {t('anonymous.receipt.dialogTitle')}
      </DialogTitle>
      <DialogContent>
        <Typography id="receipt-dialog-intro" sx={{ mb: 2 }}>
          {t('anonymous.receipt.dialogIntro')}
        </Typography>
        {receipt && <ReceiptDisplay receipt={receipt} />}
        <Alert severity="warning" sx={{ mt: 2 }} data-testid="receipt-warning">
          {t('anonymous.receipt.warning')}
        </Alert>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" size="large" onClick={onContinue} data-testid="receipt-continue">
          {t('anonymous.receipt.continue')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
