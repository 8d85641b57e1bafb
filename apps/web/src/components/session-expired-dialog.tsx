import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../config/paths';
import { fullPath } from '../lib/guards';
import { useLoginState } from '../lib/login-state';
import { useSessionExpired } from '../lib/session-sync';
import { AppThemeProvider } from '../lib/theme-provider';

/**
 * Shown when the server answers 401 to a page that thought it was signed in (lib/session-sync.ts). Loaded only
 * then. Logging in again comes back to this very address (the wizard's step included); the draft is kept.
 */
export default function SessionExpiredDialog() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const close = useSessionExpired((state) => state.close);

  const logInAgain = () => {
    const target = paths.login.to(fullPath(location));
    close();
    // Only the local session ends here; the draft stays in this device's storage.
    useLoginState.getState().clear();
    navigate(target, { replace: true });
  };

  return (
    <AppThemeProvider>
      <Dialog
        open
        aria-labelledby="session-expired-title"
        aria-describedby="session-expired-body"
        disableEscapeKeyDown
        data-testid="session-expired-dialog"
      >
        <DialogTitle id="session-expired-title">{t('session.expiredTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText id="session-expired-body">{t('session.expiredBody')}</DialogContentText>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button variant="contained" onClick={logInAgain} autoFocus>
            {t('session.logInAgain')}
          </Button>
        </DialogActions>
      </Dialog>
    </AppThemeProvider>
  );
}
