import type { ManagerCase } from '@ansim/shared/contract/manager';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths';
import { formatDate, formatDateTime } from '../../../lib/datetime';
import type { LiveState } from '../api/case-events';
import { deadlineState } from '../lib/deadlines';
import { typeLabel } from './labels';
import { StatusChip } from './status-chip';

function Deadline({
  label,
  rule,
  dueAt,
  doneAt,
  isOverdue,
  testId,
}: {
  label: string;
  rule: string;
  dueAt: string;
  doneAt: string | null;
  isOverdue: boolean;
  testId: string;
}) {
  const { t, i18n } = useTranslation();
  const state = deadlineState({ dueAt, doneAt, isOverdue });
  const due = formatDate(dueAt, i18n.language);
  const text =
    state.kind === 'done'
      ? t('manager.deadline.done', { at: formatDate(state.at, i18n.language), due })
      : state.kind === 'overdue'
        ? t('manager.deadline.overdue', { due, count: state.days })
        : t('manager.deadline.due', { due, count: state.days });
  return (
    <Alert
      severity={state.kind === 'overdue' ? 'error' : state.kind === 'done' ? 'success' : 'info'}
      variant="outlined"
      data-testid={testId}
      sx={{ py: 0 }}
    >
      <strong>{label}</strong> — {text}
      <Typography variant="body2" color="text.secondary" component="span" sx={{ display: 'block' }}>
        {rule}
      </Typography>
    </Alert>
  );
}

interface Props {
  report: ManagerCase;
  live: LiveState;
  onChangeStatus: () => void;
}

export function CaseHeader({ report, live, onChangeStatus }: Props) {
  const { t, i18n } = useTranslation();
  const isFinal = report.allowed_transitions.length === 0;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 3 }} data-testid="case-header">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <StatusChip status={report.status} size="medium" />
        <Chip label={typeLabel(t, report.report_type)} variant="outlined" />
        <Chip
          className="no-print"
          size="small"
          color={live === 'live' ? 'success' : 'default'}
          variant={live === 'live' ? 'filled' : 'outlined'}
          label={t(`manager.live.${live}`)}
          aria-live="polite"
          data-testid="live-state"
        />
      </Box>
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, auto)' },
          gap: 1,
          m: 0,
          mb: 2,
        }}
      >
        {(
          [
            ['createdAt', report.created_at],
            ['updatedAt', report.updated_at],
            ['acknowledgedAt', report.acknowledged_at],
            ['closedAt', report.closed_at],
          ] as const
        ).map(([key, value]) => (
          <div key={key}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {t(`manager.header.${key}`)}
            </Typography>
            <Typography component="dd" sx={{ m: 0 }}>
              {value ? formatDateTime(value, i18n.language) : '—'}
            </Typography>
          </div>
        ))}
      </Box>
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, mb: 2 }}>
        <Deadline
          label={t('manager.deadline.ack')}
          rule={t('manager.deadline.ackRule')}
          dueAt={report.ack_due_at}
          doneAt={report.acknowledged_at}
          isOverdue={report.is_ack_overdue}
          testId="deadline-ack"
        />
        <Deadline
          label={t('manager.deadline.feedback')}
          rule={t('manager.deadline.feedbackRule')}
          dueAt={report.feedback_due_at}
          doneAt={report.feedback_at ?? report.closed_at}
          isOverdue={report.is_feedback_overdue}
          testId="deadline-feedback"
        />
      </Box>
      <Box className="no-print" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button variant="contained" onClick={onChangeStatus} disabled={isFinal}>
          {isFinal ? t('manager.header.final') : t('manager.header.changeStatus')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<PictureAsPdfIcon />}
          component="a"
          href={`/api/v1/manager/report/${report.id}/record.pdf`}
          download
        >
          {t('manager.header.record')}
        </Button>
        <Button component={RouterLink} to={paths.manager.to()} startIcon={<ArrowBackIcon />}>
          {t('manager.header.backToList')}
        </Button>
      </Box>
    </Paper>
  );
}
