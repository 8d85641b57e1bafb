import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PageShell } from '../../../components/page-shell';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { paths } from '../../../config/paths';
import { logout } from '../../../lib/login-state';
import { useIntakeToken } from '../../anonymous/intake-token';
import { useReportForm } from '../../report-wizard/report-form-store';

export default function LogoutPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [done, setDone] = useState(false);

  useEffect(() => {
    let active = true;
    void logout().then(() => {
      // Nothing of the previous session may stay visible to whoever uses this device next.
      queryClient.clear();
      useReportForm.getState().reload();
      // The draft's intake token went with the draft; receipts saved on this device stay (see saved-receipts).
      useIntakeToken.getState().reload();
      if (!active) return;
      setDone(true);
      showSnackbar(t('logout.snackbar'));
    });
    return () => {
      active = false;
    };
  }, [queryClient, t]);

  return (
    <PageShell title={t('logout.title')} maxWidth="sm">
      <Typography aria-live="polite" sx={{ mb: 3 }}>
        {done ? t('logout.done') : t('logout.inProgress')}
      </Typography>
      {done && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <Button variant="contained" component={RouterLink} to={paths.login.to()}>
            {t('logout.loginAgain')}
          </Button>
          <Button variant="outlined" component={RouterLink} to={paths.index.to()}>
            {t('logout.home')}
          </Button>
        </Stack>
      )}
    </PageShell>
  );
}
