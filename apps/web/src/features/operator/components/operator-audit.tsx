import type { OperatorAuditEntry } from '@ansim/shared/contract/operator';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDateTime } from '../../../lib/datetime';
import { errorText } from '../../../lib/messages';
import { useOperatorAudit } from '../api/audit';

function domainsOf(entry: OperatorAuditEntry, t: TFunction): string | null {
  const domains = entry.detail?.domains;
  if (entry.action !== 'company.create' || !Array.isArray(domains) || domains.length === 0) return null;
  return t('operator.audit.domains', { domains: domains.join(', ') });
}

/** What operators did to companies, newest first: one line each, with who and when. */
export function OperatorAudit() {
  const { t } = useTranslation();
  const { dateTime } = useDateTime();
  const [page, setPage] = useState(1);
  const audit = useOperatorAudit(page);
  if (audit.isPending) return <Skeleton variant="rounded" height={120} />;
  if (audit.error) return <Alert severity="error">{errorText(t, audit.error)}</Alert>;
  const { results, count, page_size: pageSize } = audit.data;
  if (results.length === 0)
    return <Typography color="text.secondary">{t('operator.audit.empty')}</Typography>;
  return (
    <>
      <List dense aria-label={t('operator.audit.label')} data-testid="operator-audit" disablePadding>
        {results.map((entry) => (
          <ListItem key={entry.id} divider disableGutters data-testid="operator-audit-entry">
            <ListItemText
              primary={t(`operator.audit.actions.${entry.action}`, {
                name: entry.company.name,
                domain: String(entry.detail?.domain ?? ''),
                step: t(`operator.audit.domainSteps.${String(entry.detail?.step ?? '')}`, {
                  defaultValue: String(entry.detail?.step ?? ''),
                }),
              })}
              secondary={[
                dateTime(entry.at),
                entry.actor?.name ?? t('operator.audit.system'),
                domainsOf(entry, t),
              ]
                .filter(Boolean)
                .join(' · ')}
              slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
            />
          </ListItem>
        ))}
      </List>
      {count > pageSize && (
        <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center', justifyContent: 'flex-end' }}>
          <Typography variant="body2" color="text.secondary">
            {t('operator.audit.pagination', {
              from: (page - 1) * pageSize + 1,
              to: Math.min(page * pageSize, count),
              count,
            })}
          </Typography>
          <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('operator.audit.previous')}
          </Button>
          <Button size="small" disabled={page * pageSize >= count} onClick={() => setPage(page + 1)}>
            {t('operator.audit.next')}
          </Button>
        </Stack>
      )}
    </>
  );
}
