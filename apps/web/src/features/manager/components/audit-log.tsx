import type { ManagerCase } from '@ansim/shared/contract/manager';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/text-input';
import { formatDateTime } from '../../../lib/datetime';
import { useCaseAudit } from '../api/case-audit';
import { auditActionLabel } from './labels';

const FIRST_ROWS = 10;

/**
 * Every manager read and change of the case, newest first (the server keeps the latest 200 here). Repeated reads
 * by one person within ten minutes are one row with "n회"; the log filters by action and by person.
 */
export function AuditLog({ report }: { report: Pick<ManagerCase, 'id' | 'audit'> }) {
  const { t, i18n } = useTranslation();
  const [showAll, setShowAll] = useState(false);
  const [action, setAction] = useState('');
  const [userId, setUserId] = useState('');
  const filtered = useCaseAudit(report.id, { action, user_id: userId });
  const audit = action || userId ? (filtered.data ?? []) : report.audit;
  const actions = [...new Set(report.audit.map((event) => event.action))];
  const people = new Map(
    report.audit.flatMap((event) => (event.actor_id ? [[event.actor_id, event.actor_name ?? '']] : [])),
  );
  if (report.audit.length === 0)
    return <Typography color="text.secondary">{t('manager.audit.empty')}</Typography>;
  const rows = showAll ? audit : audit.slice(0, FIRST_ROWS);
  return (
    <>
      <Box className="no-print" sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
        <TextInput
          fullWidth={false}
          select
          size="small"
          label={t('manager.audit.filterAction')}
          value={action}
          onChange={(event) => setAction(event.target.value)}
          sx={{ minWidth: 200 }}
          data-testid="audit-filter-action"
        >
          <option value="">{t('manager.audit.all')}</option>
          {actions.map((value) => (
            <option key={value} value={value}>
              {auditActionLabel(t, value)}
            </option>
          ))}
        </TextInput>
        <TextInput
          fullWidth={false}
          select
          size="small"
          label={t('manager.audit.filterUser')}
          value={userId}
          onChange={(event) => setUserId(event.target.value)}
          sx={{ minWidth: 200 }}
        >
          <option value="">{t('manager.audit.all')}</option>
          {[...people].map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </TextInput>
      </Box>
      {audit.length === 0 ? (
        <Typography color="text.secondary">{t('manager.audit.empty')}</Typography>
      ) : (
        // A phone is narrower than a date, a name and an action side by side: the table scrolls, not the page.
        // Focusable, so a keyboard can scroll it too (axe: scrollable-region-focusable).
        <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="group" aria-label={t('manager.audit.title')}>
          <Table size="small" aria-label={t('manager.audit.title')} data-testid="audit-log">
            <TableHead>
              <TableRow>
                <TableCell>{t('manager.audit.at')}</TableCell>
                <TableCell>{t('manager.audit.actor')}</TableCell>
                <TableCell>{t('manager.audit.action')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((event, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: audit rows have no id; the list only grows at the top.
                <TableRow key={index}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(event.at, i18n.language)}
                    {event.last_at && event.repeat_count > 1 && (
                      <> ~ {formatDateTime(event.last_at, i18n.language)}</>
                    )}
                  </TableCell>
                  <TableCell>
                    {event.actor_name ??
                      (event.action === 'measure.opinion'
                        ? t('manager.audit.reporter')
                        : t('manager.timeline.system'))}
                  </TableCell>
                  <TableCell>
                    {auditActionLabel(t, event.action)}
                    {event.repeat_count > 1 && ` ${t('manager.audit.times', { count: event.repeat_count })}`}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      {audit.length > FIRST_ROWS && (
        <Button className="no-print" onClick={() => setShowAll((value) => !value)} sx={{ mt: 1 }}>
          {showAll ? t('manager.audit.showLess') : t('manager.audit.showAll', { count: audit.length })}
        </Button>
      )}
    </>
  );
}
