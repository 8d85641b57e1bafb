import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import PrintOutlinedIcon from '@mui/icons-material/PrintOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageShell } from '../../../components/page-shell';
import { useDateTime } from '../../../lib/datetime';
import type { InvitationKind } from '../api/invitation-api';
import type { SavedReceipt } from '../statement-receipt';

/**
 * After submitting: the SHA-256 the server computed over the stored statement. The invitee keeps it (copy or
 * print) and can later check that the statement the company holds is the one they sent.
 */
export function ReceiptView({ kind, receipt }: { kind: InvitationKind; receipt: SavedReceipt }) {
  const { t } = useTranslation();
  const { dateTime } = useDateTime();
  const [copyState, setCopyState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(receipt.receipt);
      setCopyState('copied');
    } catch {
      // Without clipboard permission the number is still selectable on the page.
      setCopyState('failed');
    }
  };
  return (
    <PageShell title={t('invitation.receipt.title')} maxWidth="md">
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }} data-testid="statement-receipt">
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start', mb: 3 }}>
          <CheckCircleOutlineIcon color="success" aria-hidden="true" sx={{ mt: 0.25 }} />
          <Typography>{t(`invitation.receipt.body.${kind}`)}</Typography>
        </Stack>
        <Box
          component="dl"
          sx={{
            m: 0,
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: '9rem 1fr' },
            columnGap: 2,
            rowGap: 1,
          }}
        >
          <Typography component="dt" variant="body2" color="text.secondary">
            {t('invitation.summary.caseNumber')}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 600 }}>
            {receipt.case_number}
          </Typography>
          <Typography component="dt" variant="body2" color="text.secondary">
            {t('invitation.receipt.submittedAt')}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 600 }} data-testid="receipt-time">
            {dateTime(receipt.submitted_at)}
          </Typography>
          <Typography component="dt" variant="body2" color="text.secondary">
            {t('invitation.receipt.number')}
          </Typography>
          <Typography
            component="dd"
            sx={{
              m: 0,
              fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
              fontSize: '0.95rem',
              overflowWrap: 'anywhere',
              bgcolor: 'action.hover',
              borderRadius: 1,
              px: 1.5,
              py: 1,
            }}
            data-testid="receipt-hash"
          >
            {receipt.receipt}
          </Typography>
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {t('invitation.receipt.explain')}
        </Typography>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1.5}
          sx={{ mt: 3, displayPrint: 'none', alignItems: { xs: 'stretch', sm: 'center' } }}
        >
          <Button
            variant="contained"
            startIcon={<ContentCopyIcon aria-hidden="true" />}
            onClick={() => void copy()}
          >
            {t('invitation.receipt.copy')}
          </Button>
          <Button
            variant="outlined"
            startIcon={<PrintOutlinedIcon aria-hidden="true" />}
            onClick={() => window.print()}
          >
            {t('invitation.receipt.print')}
          </Button>
        </Stack>
        <Typography role="status" variant="body2" sx={{ mt: 1.5, minHeight: '1.5em' }}>
          {copyState === 'copied' && t('invitation.receipt.copied')}
          {copyState === 'failed' && t('invitation.receipt.copyFailed')}
        </Typography>
        <Typography sx={{ mt: 2 }}>{t('invitation.receipt.next')}</Typography>
      </Paper>
    </PageShell>
  );
}
