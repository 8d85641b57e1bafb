import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/datetime';
import type { ManagerCase } from '../api/types';
import { auditActionLabel } from './labels';

const FIRST_ROWS = 10;

/** Every manager read and change of the case, newest first (the server keeps the latest 200 here). */
export function AuditLog({ audit }: { audit: ManagerCase['audit'] }) {
  const { t, i18n } = useTranslation();
  const [showAll, setShowAll] = useState(false);
  if (audit.length === 0) return <Typography color="text.secondary">{t('manager.audit.empty')}</Typography>;
  const rows = showAll ? audit : audit.slice(0, FIRST_ROWS);
  return (
    <>
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
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.at, i18n.language)}</TableCell>
              <TableCell>{event.actor_name ?? t('manager.timeline.system')}</TableCell>
              <TableCell>{auditActionLabel(t, event.action)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {audit.length > FIRST_ROWS && (
        <Button className="no-print" onClick={() => setShowAll((value) => !value)} sx={{ mt: 1 }}>
          {showAll ? t('manager.audit.showLess') : t('manager.audit.showAll', { count: audit.length })}
        </Button>
      )}
    </>
  );
}
