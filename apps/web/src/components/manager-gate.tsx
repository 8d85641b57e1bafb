import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink } from 'react-router';
import { paths } from '../config/paths';
import { useManagerAccess } from '../hooks/use-manager-access';
import { PageLoading } from './page-loading';
import { PageShell } from './page-shell';

/** The page a member (or a manager without a company) sees; the API answers them 403 all the same. */
export function ManagerOnly() {
  const { t } = useTranslation();
  return (
    <PageShell title={t('manager.forbidden.title')}>
      <Alert severity="warning" sx={{ mb: 3 }}>
        {t('manager.forbidden.body')}
      </Alert>
      <Button variant="outlined" component={RouterLink} to={paths.dashboard.to()}>
        {t('manager.forbidden.toDashboard')}
      </Button>
    </PageShell>
  );
}

/** Renders the manager pages only for managers, so members get one clear page instead of failing calls. */
export function ManagerGate({ children }: { children: React.ReactNode }) {
  const { isManager, isPending, user } = useManagerAccess();
  if (isPending) return <PageLoading />;
  if (!isManager) return <ManagerOnly />;
  // The API answers every manager route 403 MFA_ENROLLMENT_REQUIRED until a second factor is enrolled.
  if (user && !user.mfa.totp && user.mfa.passkeys === 0)
    return <Navigate to={paths.accountSecurity.to()} replace />;
  return <>{children}</>;
}
