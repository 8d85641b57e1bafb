import type { ReportStats } from '@ansim/shared/contract/manager';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

const OPEN_STATUSES = ['received', 'investigating', 'action_taken'] as const;

export const openCount = (stats: ReportStats) =>
  OPEN_STATUSES.reduce((sum, status) => sum + (stats.by_status[status] ?? 0), 0);

function StatCard({
  label,
  value,
  hint,
  tone,
}: {
  label: string;
  value: React.ReactNode;
  hint?: string;
  tone?: 'error';
}) {
  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary" component="p">
        {label}
      </Typography>
      <Typography
        component="p"
        sx={{
          fontSize: '1.75rem',
          fontWeight: 700,
          mt: 0.5,
          color: tone === 'error' ? 'error.main' : undefined,
        }}
      >
        {value}
      </Typography>
      {hint && (
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
      )}
    </Paper>
  );
}

/** The headline numbers of the statistics page: received, in progress, medians and what is overdue now. */
export function StatsCards({ stats }: { stats: ReportStats | undefined }) {
  const { t } = useTranslation();
  const days = (value: number | null) => (value === null ? '—' : t('manager.stats.days', { count: value }));
  return (
    <Box
      component="section"
      aria-label={t('manager.stats.heading')}
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(5, 1fr)' },
        mb: 3,
      }}
      data-testid="stats-cards"
    >
      {!stats
        ? Array.from({ length: 5 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders with no identity.
            <Skeleton key={index} variant="rounded" height={112} />
          ))
        : [
            <StatCard key="total" label={t('manager.stats.total')} value={stats.total} />,
            <StatCard key="open" label={t('manager.stats.open')} value={openCount(stats)} />,
            <StatCard
              key="median-ack"
              label={t('manager.stats.medianAck')}
              value={days(stats.median_days_to_acknowledge)}
              hint={stats.median_days_to_acknowledge === null ? t('manager.stats.medianNone') : undefined}
            />,
            <StatCard
              key="median"
              label={t('manager.stats.median')}
              value={days(stats.median_days_to_close)}
              hint={stats.median_days_to_close === null ? t('manager.stats.medianNone') : undefined}
            />,
            <StatCard
              key="overdue"
              label={t('manager.stats.overdue')}
              value={stats.overdue.total}
              hint={t('manager.stats.overdueHint', {
                ack: stats.overdue.ack,
                feedback: stats.overdue.feedback,
              })}
              tone={stats.overdue.total > 0 ? 'error' : undefined}
            />,
          ]}
    </Box>
  );
}
