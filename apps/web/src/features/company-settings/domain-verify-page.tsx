import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageShell } from '../../components/page-shell';
import { isRequestError } from '../../lib/request-error';
import { useDomainClaim, useVerifyDomain } from './api/company-settings';
import './settings-copy';

/**
 * Opened from the mail sent to an address at the claimed domain. The reader need not have an account: holding
 * the link is the proof. Opening it changes nothing (mail scanners follow links); the button does.
 */
export default function DomainVerifyPage() {
  const { t } = useTranslation();
  const token = useParams().token ?? '';
  const claim = useDomainClaim(token);
  const verify = useVerifyDomain(token);
  const done = verify.data;
  return (
    <PageShell title={t('settings.verifyDomain.title')} maxWidth="sm">
      {claim.isPending ? (
        <Skeleton variant="rounded" height={120} />
      ) : done ? (
        <Alert severity="success" data-testid="domain-verified">
          {t('settings.verifyDomain.done', { domain: done.domain, company: done.company.name })}
        </Alert>
      ) : claim.error || verify.error ? (
        <Alert severity="error">
          {verify.error && !isRequestError(verify.error, 'INVALID_TOKEN')
            ? verify.error.message
            : t('settings.verifyDomain.invalid')}
        </Alert>
      ) : (
        <>
          <Typography sx={{ mb: 3 }}>
            {t('settings.verifyDomain.body', { company: claim.data.company.name, domain: claim.data.domain })}
          </Typography>
          <Button variant="contained" onClick={() => verify.mutate()} disabled={verify.isPending}>
            {t('settings.verifyDomain.confirm')}
          </Button>
        </>
      )}
    </PageShell>
  );
}
