import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink } from 'react-router';
import { useCurrentUser } from '../../components/header/use-current-user';
import { PageLoading } from '../../components/page-loading';
import { PageShell } from '../../components/page-shell';
import { paths } from '../../config/paths';
import { CompaniesTable } from './components/companies-table';
import { CreateCompanyForm } from './components/create-company-form';
import { HealthPanel } from './components/health-panel';
import { OperatorAudit } from './components/operator-audit';

/** `/operator`: the platform operator's console — companies and platform health, never a case (R-CO-4). */
export default function OperatorPage() {
  const { t } = useTranslation();
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <PageLoading />;
  if (user?.role !== 'operator')
    return (
      <PageShell title={t('operator.forbidden.title')}>
        <Alert severity="warning" sx={{ mb: 3 }}>
          {t('operator.forbidden.body')}
        </Alert>
        <Button variant="outlined" component={RouterLink} to={paths.index.to()}>
          {t('notFound.home')}
        </Button>
      </PageShell>
    );
  // The API answers 403 MFA_ENROLLMENT_REQUIRED until a second factor is enrolled.
  if (!user.mfa.totp && user.mfa.passkeys === 0) return <Navigate to={paths.accountSecurity.to()} replace />;
  return (
    <PageShell title={t('operator.title')} subtitle={t('operator.subtitle')} maxWidth="lg">
      <Stack spacing={5}>
        <section aria-labelledby="health-heading">
          <Typography variant="h2" id="health-heading" sx={{ mb: 2 }}>
            {t('operator.health.heading')}
          </Typography>
          <HealthPanel />
        </section>
        <section aria-labelledby="companies-heading">
          <Typography variant="h2" id="companies-heading" sx={{ mb: 2 }}>
            {t('operator.companies.heading')}
          </Typography>
          <CompaniesTable />
        </section>
        <section aria-labelledby="create-company-heading">
          <Typography variant="h2" id="create-company-heading" sx={{ mb: 1 }}>
            {t('operator.create.heading')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('operator.create.intro')}
          </Typography>
          <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
            <CreateCompanyForm />
          </Paper>
        </section>
        <section aria-labelledby="operator-audit-heading">
          <Typography variant="h2" id="operator-audit-heading" sx={{ mb: 1 }}>
            {t('operator.audit.heading')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('operator.audit.intro')}
          </Typography>
          <OperatorAudit />
        </section>
      </Stack>
    </PageShell>
  );
}
