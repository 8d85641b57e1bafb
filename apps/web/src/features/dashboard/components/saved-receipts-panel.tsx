import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ReceiptDisplay } from '../../../components/receipt-display';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/messages';
import { receiptTail } from '../../../lib/receipt-format';
import { type ReceiptPageState, useSavedReceipts } from '../../../stores/saved-receipts';
import { useDismissPendingReceipts, usePendingReceipts } from '../api/pending-receipts';
import '../../../locales/anonymous-copy';
import { useDateTime } from '../../../lib/datetime';

/**
 * The member's anonymous reports, which the account no longer knows: only receipts saved on this device
 * list them, and each opens through the receipt page, never through the account.
 */
export function SavedReceiptsPanel() {
  const { t } = useTranslation();
  const titleId = useId();
  const receipts = useSavedReceipts((state) => state.receipts);
  const { date: formatDate } = useDateTime();

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={titleId}
      sx={{ p: { xs: 2, sm: 3 }, mt: 4 }}
      data-testid="saved-receipts"
    >
      <Typography id={titleId} variant="h2" sx={{ fontSize: '1.15rem', mb: 1 }}>
        {t('anonymous.dashboard.savedTitle')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('anonymous.dashboard.savedBody')}
      </Typography>
      {receipts.length === 0 ? (
        <Typography color="text.secondary">{t('anonymous.dashboard.savedNone')}</Typography>
      ) : (
        <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {receipts.map((item) => {
            const last = receiptTail(item.receipt);
            return (
              <Box
                component="li"
                key={item.receipt}
                data-testid="saved-receipt"
                sx={{
                  display: 'flex',
                  alignItems: 'center',
                  flexWrap: 'wrap',
                  gap: 1,
                  border: 1,
                  borderColor: 'divider',
                  borderRadius: 2,
                  px: 1.5,
                  py: 1,
                }}
              >
                <Box sx={{ flex: 1, minWidth: 160 }}>
                  <Typography sx={{ fontWeight: 700 }}>{t('anonymous.receipt.tail', { last })}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {t('anonymous.receipt.savedAt', { date: formatDate(item.savedAt) })}
                  </Typography>
                </Box>
                <Button
                  variant="outlined"
                  component={RouterLink}
                  to={paths.receipt.to()}
                  state={{ savedAt: item.savedAt } satisfies ReceiptPageState}
                  aria-label={t('anonymous.dashboard.openLabel', { last })}
                >
                  {t('anonymous.dashboard.open')}
                </Button>
                <Button
                  color="inherit"
                  onClick={() => useSavedReceipts.getState().forget(item.receipt)}
                  aria-label={t('anonymous.dashboard.forgetLabel', { last })}
                >
                  {t('anonymous.dashboard.forget')}
                </Button>
              </Box>
            );
          })}
        </Stack>
      )}
    </Paper>
  );
}

/** A receipt issued when an old anonymous report was cut loose from this account: shown until dismissed. */
export function PendingReceiptsPanel({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const pending = usePendingReceipts(enabled);
  const dismiss = useDismissPendingReceipts();
  if (!pending.data?.length) return null;
  return (
    <Alert severity="warning" icon={false} sx={{ mb: 4, display: 'block' }} data-testid="pending-receipts">
      <AlertTitle>{t('anonymous.dashboard.pendingTitle')}</AlertTitle>
      <Typography sx={{ mb: 2 }}>{t('anonymous.dashboard.pendingBody')}</Typography>
      <Stack spacing={2}>
        {pending.data.map((item) => (
          <Box key={item.receipt}>
            {item.case_number && (
              <Typography sx={{ fontWeight: 700, mb: 1 }}>
                {t('dashboard.caseNumber', { number: item.case_number })}
              </Typography>
            )}
            <ReceiptDisplay receipt={item.receipt} />
          </Box>
        ))}
      </Stack>
      {dismiss.isError && (
        <Typography color="error" role="alert" sx={{ mt: 1 }}>
          {errorText(t, dismiss.error)}
        </Typography>
      )}
      <Button
        variant="contained"
        sx={{ mt: 2 }}
        disabled={dismiss.isPending}
        onClick={() => dismiss.mutate()}
        data-testid="pending-receipts-done"
      >
        {t('anonymous.dashboard.pendingDone')}
      </Button>
    </Alert>
  );
}
