import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/messages';
import { usePlatformHealth } from '../api/health';

function formatBytes(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toLocaleString(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 })} ${units[unit]}`;
}

function Stat({ label, value, warn }: { label: string; value: string; warn?: boolean }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="body2" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Typography variant="h3" component="dd" sx={{ m: 0, mt: 0.5, color: warn ? 'error.main' : undefined }}>
        {value}
      </Typography>
    </Paper>
  );
}

/** Mail that is not going out and storage in use: what the operator watches, never what the mail says. */
export function HealthPanel() {
  const { t, i18n } = useTranslation();
  const health = usePlatformHealth();
  if (health.isPending) return <Skeleton variant="rounded" height={96} />;
  if (health.error) return <Alert severity="error">{errorText(t, health.error)}</Alert>;
  const { outbox, storage } = health.data;
  const minutes =
    outbox.oldest_pending_seconds === null ? null : Math.floor(outbox.oldest_pending_seconds / 60);
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gap: 2, m: 0, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }}
    >
      <Stat
        label={t('operator.health.pending')}
        value={t('operator.health.count', { count: outbox.pending })}
      />
      <Stat
        label={t('operator.health.oldest')}
        value={
          minutes === null ? t('operator.health.none') : t('operator.health.minutes', { count: minutes })
        }
        warn={minutes !== null && minutes >= 30}
      />
      <Stat
        label={t('operator.health.failed')}
        value={t('operator.health.count', { count: outbox.failed })}
        warn={outbox.failed > 0}
      />
      <Stat
        label={t('operator.health.storage')}
        value={t('operator.health.storageValue', {
          size: formatBytes(storage.bytes, i18n.language),
          count: storage.files,
        })}
      />
    </Box>
  );
}
