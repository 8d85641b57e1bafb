import type { CaseHistoryEntry } from '@ansim/shared/contract/manager';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/datetime';
import { statusLabel } from './labels';
import { outlinedTone } from './status-chip';

/** The status history, oldest first: who moved the case, when, and what each side was told. */
export function CaseTimeline({ history }: { history: CaseHistoryEntry[] }) {
  const { t, i18n } = useTranslation();
  return (
    <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="timeline">
      {history.map((entry, index) => (
        <Box
          component="li"
          // biome-ignore lint/suspicious/noArrayIndexKey: history rows have no id and never reorder.
          key={index}
          sx={{ position: 'relative', pl: 3, pb: 2, borderLeft: 2, borderColor: 'divider', ml: 1 }}
        >
          <Box
            aria-hidden="true"
            sx={{
              position: 'absolute',
              left: -7,
              top: 4,
              width: 12,
              height: 12,
              borderRadius: '50%',
              bgcolor: 'primary.main',
            }}
          />
          <Typography sx={{ fontWeight: 700 }}>
            {entry.from_status
              ? t('manager.timeline.change', {
                  from: statusLabel(t, entry.from_status),
                  to: statusLabel(t, entry.to_status),
                })
              : t('manager.timeline.created', { to: statusLabel(t, entry.to_status) })}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {formatDateTime(entry.created_at, i18n.language)} ·{' '}
            {entry.actor_name ?? t('manager.timeline.system')}
          </Typography>
          {entry.note_for_reporter && (
            <Box sx={{ mt: 1 }}>
              <Chip
                size="small"
                variant="outlined"
                color="primary"
                sx={outlinedTone('primary')}
                label={t('manager.timeline.noteForReporter')}
              />
              <Typography sx={{ mt: 0.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {entry.note_for_reporter}
              </Typography>
            </Box>
          )}
          {entry.internal_note && (
            <Box sx={{ mt: 1, p: 1, bgcolor: 'action.hover', borderRadius: 1 }}>
              <Chip size="small" color="warning" label={t('manager.timeline.internalNote')} />
              <Typography sx={{ mt: 0.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {entry.internal_note}
              </Typography>
            </Box>
          )}
        </Box>
      ))}
    </Box>
  );
}
