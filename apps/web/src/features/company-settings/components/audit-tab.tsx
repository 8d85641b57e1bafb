import { COMPANY_AUDIT_ACTIONS } from '@ansim/shared/constants';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/text-input';
import { useDateTime } from '../../../lib/datetime';
import { type AuditEntry, type AuditFilters, useAudit, usePeople } from '../api/company-settings';
import { SettingsSection } from './settings-section';

const DAY_FIELDS = new Set(['ack_deadline_days', 'feedback_deadline_days', 'retention_days']);
/** Done by the platform's operator, who is no one of the company: named as such, not only by name. */
const OPERATOR_ACTIONS = new Set<AuditEntry['action']>(['company.suspend', 'company.resume']);

function actorLabel(entry: AuditEntry, t: TFunction): string {
  if (!entry.actor) return t('settings.audit.system');
  return OPERATOR_ACTIONS.has(entry.action)
    ? t('settings.audit.byOperator', { name: entry.actor.name })
    : entry.actor.name;
}

/** One readable line per change, from the recorded old and new values; never case content (none is recorded). */
export function describeAuditEntry(entry: AuditEntry, t: TFunction): string {
  const detail = entry.detail ?? {};
  const role = (value: unknown) => t(`settings.roles.${String(value)}`);
  switch (entry.action) {
    case 'user.role':
      return t('settings.audit.detail.roleChange', {
        name: entry.target_name ?? '—',
        from: role(detail.from),
        to: role(detail.to),
      });
    case 'company.join_code':
      return t('settings.audit.detail.rotated');
    case 'company.intake_code':
      return t('settings.audit.detail.intakeRotated');
    case 'company.domain': {
      const key =
        detail.step === 'verified'
          ? 'domainVerified'
          : detail.step === 'removed'
            ? 'domainRemoved'
            : 'domainRequested';
      return t(`settings.audit.detail.${key}`, { domain: String(detail.domain ?? entry.target_id ?? '') });
    }
    case 'company.invitation': {
      const key =
        detail.event === 'revoked'
          ? 'invitationRevoked'
          : detail.event === 'accepted'
            ? 'invitationAccepted'
            : 'invitationSent';
      return t(`settings.audit.detail.${key}`, { role: role(detail.role) });
    }
    case 'company.suspend':
      return t('settings.audit.detail.suspended');
    case 'company.resume':
      return t('settings.audit.detail.resumed');
    case 'company.settings':
      return Object.entries(detail)
        .map(([field, change]) => {
          const label = t(`settings.audit.fields.${field}`, { defaultValue: field });
          if (DAY_FIELDS.has(field) && change && typeof change === 'object') {
            const { from, to } = change as { from: number; to: number };
            return t('settings.audit.detail.field', {
              field: label,
              from: t('settings.audit.daysValue', { count: from }),
              to: t('settings.audit.daysValue', { count: to }),
            });
          }
          return t('settings.audit.detail.textChanged', { field: label });
        })
        .join(', ');
    default:
      return '';
  }
}

export function AuditTab() {
  const { t } = useTranslation();
  const { dateTime } = useDateTime();
  const [filters, setFilters] = useState<AuditFilters>({ page: 1 });
  const audit = useAudit(filters);
  const people = usePeople();
  const admins = (people.data ?? []).filter((person) => person.role !== 'member');
  const pageSize = audit.data?.page_size ?? 50;
  const count = audit.data?.count ?? 0;
  return (
    <SettingsSection
      title={t('settings.audit.heading')}
      intro={t('settings.audit.intro')}
      testId="audit-section"
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <TextInput
          select
          size="small"
          label={t('settings.audit.action')}
          value={filters.action ?? ''}
          onChange={(event) => setFilters({ ...filters, action: event.target.value || undefined, page: 1 })}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ minWidth: 200 }}
        >
          <option value="">{t('settings.audit.allActions')}</option>
          {COMPANY_AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {t(`settings.audit.actions.${action}`)}
            </option>
          ))}
        </TextInput>
        <TextInput
          select
          size="small"
          label={t('settings.audit.who')}
          value={filters.user_id ?? ''}
          onChange={(event) => setFilters({ ...filters, user_id: event.target.value || undefined, page: 1 })}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ minWidth: 200 }}
        >
          <option value="">{t('settings.audit.everyone')}</option>
          {admins.map((person) => (
            <option key={person.id} value={person.id}>
              {person.name}
            </option>
          ))}
        </TextInput>
      </Stack>
      {audit.isPending ? (
        <Skeleton variant="rounded" height={160} />
      ) : audit.error ? (
        <Alert severity="error">{audit.error.message}</Alert>
      ) : audit.data.results.length === 0 ? (
        <Alert severity="info">{t('settings.audit.empty')}</Alert>
      ) : (
        <>
          <TableContainer tabIndex={0} aria-label={t('settings.audit.heading')} sx={{ overflowX: 'auto' }}>
            <Table size="small" data-testid="audit-table">
              <TableHead>
                <TableRow>
                  <TableCell>{t('settings.audit.at')}</TableCell>
                  <TableCell>{t('settings.audit.who')}</TableCell>
                  <TableCell>{t('settings.audit.action')}</TableCell>
                  <TableCell>{t('settings.audit.what')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {audit.data.results.map((entry) => (
                  <TableRow key={entry.id}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{dateTime(entry.at)}</TableCell>
                    <TableCell>{actorLabel(entry, t)}</TableCell>
                    <TableCell>{t(`settings.audit.actions.${entry.action}`)}</TableCell>
                    <TableCell>{describeAuditEntry(entry, t)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center', justifyContent: 'flex-end' }}>
            <Typography variant="body2" color="text.secondary">
              {t('settings.audit.pagination', {
                from: (filters.page - 1) * pageSize + 1,
                to: Math.min(filters.page * pageSize, count),
                count,
              })}
            </Typography>
            <Button
              size="small"
              disabled={filters.page <= 1}
              onClick={() => setFilters({ ...filters, page: filters.page - 1 })}
            >
              {t('settings.audit.previous')}
            </Button>
            <Button
              size="small"
              disabled={filters.page * pageSize >= count}
              onClick={() => setFilters({ ...filters, page: filters.page + 1 })}
            >
              {t('settings.audit.next')}
            </Button>
          </Stack>
        </>
      )}
    </SettingsSection>
  );
}
