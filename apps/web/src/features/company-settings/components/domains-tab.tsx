import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { TextInput } from '../../../components/text-input';
import { useDateTime } from '../../../lib/datetime';
import { isRequestError } from '../../../lib/request-error';
import { useClaimDomain, useDomains, useRemoveDomain } from '../api/company-settings';
import { SettingsSection } from './settings-section';

function ClaimForm() {
  const { t } = useTranslation();
  const claim = useClaimDomain();
  const [domain, setDomain] = useState('');
  const [email, setEmail] = useState('');
  const details = isRequestError(claim.error) ? claim.error.details : undefined;
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        claim.mutate(
          { domain: domain.trim(), email: email.trim() },
          {
            onSuccess: () => {
              showSnackbar(t('settings.domains.sent', { email: email.trim() }), 'success');
              setDomain('');
              setEmail('');
            },
          },
        );
      }}
    >
      <Typography variant="h3" sx={{ fontSize: '1.05rem', mb: 2 }}>
        {t('settings.domains.add')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextInput
          label={t('settings.domains.domain')}
          value={domain}
          onChange={(event) => setDomain(event.target.value)}
          error={Boolean(details?.domain)}
          helperText={details?.domain ?? t('settings.domains.domainHelp')}
          required
          autoComplete="off"
          sx={{ flex: 1 }}
        />
        <TextInput
          label={t('settings.domains.email')}
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={Boolean(details?.email)}
          helperText={details?.email ?? t('settings.domains.emailHelp')}
          required
          autoComplete="off"
          sx={{ flex: 1 }}
        />
        <Button
          type="submit"
          variant="contained"
          disabled={claim.isPending || !domain.trim() || !email.trim()}
          sx={{ mt: { sm: 1 } }}
        >
          {t('settings.domains.submit')}
        </Button>
      </Stack>
      {claim.error && !details && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {claim.error.message}
        </Alert>
      )}
    </Box>
  );
}

export function DomainsTab() {
  const { t } = useTranslation();
  const { date } = useDateTime();
  const domains = useDomains();
  const remove = useRemoveDomain();
  const [removing, setRemoving] = useState<string | null>(null);
  return (
    <SettingsSection
      title={t('settings.domains.heading')}
      intro={t('settings.domains.intro')}
      testId="domains-section"
    >
      {domains.isPending ? (
        <Skeleton variant="rounded" height={80} />
      ) : domains.error ? (
        <Alert severity="error">{domains.error.message}</Alert>
      ) : (
        <Stack spacing={3}>
          {domains.data.domains.length === 0 ? (
            <Alert severity="info">{t('settings.domains.none')}</Alert>
          ) : (
            <List aria-label={t('settings.domains.list')}>
              {domains.data.domains.map((row) => (
                <ListItem
                  key={row.domain}
                  divider
                  secondaryAction={
                    <Button size="small" color="error" onClick={() => setRemoving(row.domain)}>
                      {t('settings.domains.remove')}
                    </Button>
                  }
                >
                  <ListItemText
                    primary={row.domain}
                    secondary={t('settings.domains.added', { date: date(row.added_at) })}
                  />
                </ListItem>
              ))}
            </List>
          )}
          {domains.data.pending.length > 0 && (
            <Box>
              <Typography variant="h3" sx={{ fontSize: '1.05rem', mb: 1 }}>
                {t('settings.domains.pending')}
              </Typography>
              <List dense aria-label={t('settings.domains.pending')}>
                {domains.data.pending.map((row) => (
                  <ListItem key={row.id}>
                    <ListItemText
                      primary={t('settings.domains.pendingItem', {
                        domain: row.domain,
                        email: row.email,
                        date: date(row.expires_at),
                      })}
                      slotProps={{ primary: { sx: { wordBreak: 'break-all' } } }}
                    />
                  </ListItem>
                ))}
              </List>
            </Box>
          )}
          <ClaimForm />
        </Stack>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t('settings.domains.remove')}
        body={removing ? t('settings.domains.removeConfirm', { domain: removing }) : ''}
        confirmLabel={t('settings.domains.remove')}
        cancelLabel={t('settings.cancel')}
        onConfirm={() =>
          removing &&
          remove.mutate(removing, {
            onSuccess: () => showSnackbar(t('settings.domains.removed', { domain: removing }), 'success'),
            onError: (error) => showSnackbar(error.message, 'error'),
          })
        }
        onClose={() => setRemoving(null)}
      />
    </SettingsSection>
  );
}
