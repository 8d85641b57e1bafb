import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PageShell } from '../../../components/page-shell';
import { useDateTime } from '../../../lib/datetime';
import { errorText } from '../../../lib/messages';
import type { InvitationView } from '../api/invitation-api';
import { InvitationSummary } from './invitation-summary';

export function InvitationLoading({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <PageShell title={title} maxWidth="md">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }} role="status">
        <CircularProgress size={24} aria-hidden="true" />
        <Typography>{t('invitation.loading')}</Typography>
      </Box>
    </PageShell>
  );
}

/** A failure that is not about the link itself (network, server): the invitee can try again. */
export function InvitationLoadError({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  return (
    <PageShell title={title} maxWidth="md">
      <Alert
        severity="error"
        role="alert"
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('invitation.retry')}
          </Button>
        }
      >
        {errorText(t, error)}
      </Alert>
    </PageShell>
  );
}

/** The link was already used for a statement: say so, with when, and how to add something. */
export function RespondedView({ invitation }: { invitation: InvitationView }) {
  const { t } = useTranslation();
  const { dateTime } = useDateTime();
  return (
    <PageShell title={t('invitation.responded.title')} maxWidth="md">
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }} data-testid="invitation-responded">
        <Typography sx={{ mb: 1.5 }}>
          {t('invitation.responded.body', { time: dateTime(invitation.responded_at!) })}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('invitation.responded.next')}
        </Typography>
        <InvitationSummary invitation={invitation} />
      </Paper>
    </PageShell>
  );
}
