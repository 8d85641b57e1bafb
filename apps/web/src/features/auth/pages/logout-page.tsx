import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { PageShell } from '../../../components/page-shell';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { paths } from '../../../config/paths';
import { logout } from '../../../lib/login-actions';
import { useIntakeToken } from '../../../stores/intake-token';
import { useReportForm } from '../../../stores/report-form-store';
import '../../../locales/report-copy';
import { reportTypeLabel } from '../../../lib/report-type-labels';

type Phase = 'confirm' | 'running' | 'done';

export default function LogoutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const draftType = useReportForm((state) => state.form.report_type);
  // Logging out deletes the draft on this device (a shared computer must not keep it), so ask first.
  const [phase, setPhase] = useState<Phase>(() => (draftType ? 'confirm' : 'running'));

  useEffect(() => {
    if (phase !== 'running') return;
    let active = true;
    void logout().then(() => {
      // Nothing of the previous session may stay visible to whoever uses this device next.
      queryClient.clear();
      useReportForm.getState().reload();
      // The draft's intake token went with the draft; receipts saved on this device stay (see saved-receipts).
      useIntakeToken.getState().reload();
      if (!active) return;
      setPhase('done');
      showSnackbar(t('logout.snackbar'));
    });
    return () => {
      active = false;
    };
  }, [phase, queryClient, t]);

  const stay = () => {
    // React Router numbers its history entries; without one to go back to, the draft is the useful place.
    const canGoBack = ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;
    if (canGoBack) navigate(-1);
    else navigate(paths.dashboard.to(), { replace: true });
  };

  return (
    <PageShell title={t('logout.title')} maxWidth="sm">
      {phase !== 'confirm' && (
        <Typography aria-live="polite" sx={{ mb: 3 }}>
          {phase === 'done' ? t('logout.done') : t('logout.inProgress')}
        </Typography>
      )}
      {phase === 'done' && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <Button variant="contained" component={RouterLink} to={paths.login.to()}>
            {t('logout.loginAgain')}
          </Button>
          <Button variant="outlined" component={RouterLink} to={paths.index.to()}>
            {t('logout.home')}
          </Button>
        </Stack>
      )}
      <Dialog
        open={phase === 'confirm'}
        onClose={stay}
        aria-labelledby="logout-dialog-title"
        aria-describedby="logout-dialog-body"
        data-testid="logout-draft-dialog"
      >
        <DialogTitle id="logout-dialog-title">{t('logout.draftTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText id="logout-dialog-body">
            {t('logout.draftBody', { type: draftType ? reportTypeLabel(t, draftType) : '' })}
          </DialogContentText>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={stay} autoFocus>
            {t('logout.draftStay')}
          </Button>
          <Button onClick={() => setPhase('running')} color="error" variant="contained">
            {t('logout.draftConfirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </PageShell>
  );
}
