import type { OperatorCompany } from '@ansim/shared/contract/operator';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { formatDate } from '../../../lib/datetime';
import { errorText } from '../../../lib/messages';
import { useOperatorCompanies, useSetSuspended } from '../api/companies';

function ConfirmSuspension({ company, onClose }: { company: OperatorCompany | null; onClose: () => void }) {
  const { t } = useTranslation();
  const setSuspended = useSetSuspended();
  const suspending = company ? !company.suspended_at : true;
  const onConfirm = async () => {
    if (!company) return;
    try {
      await setSuspended.mutateAsync({ id: company.id, suspended: suspending });
      showSnackbar(
        t(suspending ? 'operator.suspend.done' : 'operator.resume.done', { name: company.name }),
        'success',
      );
      onClose();
    } catch (error) {
      showSnackbar(errorText(t, error), 'error');
    }
  };
  const key = suspending ? 'suspend' : 'resume';
  return (
    <Dialog open={company !== null} onClose={onClose} aria-labelledby="suspension-title">
      <DialogTitle id="suspension-title">
        {t(`operator.${key}.title`, { name: company?.name ?? '' })}
      </DialogTitle>
      <DialogContent>
        <DialogContentText>{t(`operator.${key}.body`)}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('operator.cancel')}</Button>
        <Button
          onClick={onConfirm}
          variant="contained"
          color={suspending ? 'error' : 'primary'}
          disabled={setSuspended.isPending}
        >
          {t(`operator.${key}.confirm`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function People({ users }: { users: OperatorCompany['users'] }) {
  const { t } = useTranslation();
  return (
    <Typography variant="body2" component="span">
      {(['admin', 'manager', 'investigator', 'member'] as const)
        .map((role) => `${t(`roles.${role}`)} ${users[role]}`)
        .join(' · ')}
    </Typography>
  );
}

/** The companies with head counts per role and case counts; no case and no person is ever named here. */
export function CompaniesTable() {
  const { t, i18n } = useTranslation();
  const companies = useOperatorCompanies();
  const [confirming, setConfirming] = useState<OperatorCompany | null>(null);
  if (companies.isPending) return <Skeleton variant="rounded" height={160} />;
  if (companies.error) return <Alert severity="error">{errorText(t, companies.error)}</Alert>;
  if (companies.data.length === 0)
    return <Typography color="text.secondary">{t('operator.companies.empty')}</Typography>;
  return (
    <>
      <Box
        component="ul"
        aria-labelledby="companies-heading"
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' },
        }}
      >
        {companies.data.map((company) => (
          <Paper
            component="li"
            variant="outlined"
            key={company.id}
            data-testid="operator-company"
            sx={{ p: 2, overflowWrap: 'anywhere' }}
          >
            <Stack direction="row" spacing={1} alignItems="flex-start" justifyContent="space-between">
              <Box>
                <Typography variant="h3" component="h3" sx={{ fontSize: '1.1rem', fontWeight: 700 }}>
                  {company.name}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {company.domains.join(', ') || t('operator.companies.noDomain')}
                </Typography>
              </Box>
              {company.suspended_at ? (
                <Chip size="small" color="error" label={t('operator.companies.suspended')} />
              ) : (
                <Chip
                  size="small"
                  color="success"
                  variant="outlined"
                  label={t('operator.companies.active')}
                />
              )}
            </Stack>
            <Box
              component="dl"
              sx={{ m: 0, mt: 1.5, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: 0.5, columnGap: 2 }}
            >
              <Typography component="dt" variant="body2" color="text.secondary">
                {t('operator.companies.people')}
              </Typography>
              <Box component="dd" sx={{ m: 0 }}>
                <People users={company.users} />
              </Box>
              <Typography component="dt" variant="body2" color="text.secondary">
                {t('operator.companies.cases')}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                {t('operator.companies.caseCount', { total: company.cases.total, open: company.cases.open })}
              </Typography>
              <Typography component="dt" variant="body2" color="text.secondary">
                {t('operator.companies.registered')}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                {formatDate(company.created_at, i18n.language)}
              </Typography>
            </Box>
            <Box sx={{ mt: 1.5, textAlign: 'right' }}>
              <Button
                size="small"
                variant="outlined"
                color={company.suspended_at ? 'primary' : 'error'}
                onClick={() => setConfirming(company)}
                aria-label={t(company.suspended_at ? 'operator.resume.label' : 'operator.suspend.label', {
                  name: company.name,
                })}
              >
                {t(company.suspended_at ? 'operator.resume.button' : 'operator.suspend.button')}
              </Button>
            </Box>
          </Paper>
        ))}
      </Box>
      <ConfirmSuspension company={confirming} onClose={() => setConfirming(null)} />
    </>
  );
}
