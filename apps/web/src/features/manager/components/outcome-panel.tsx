import type { ManagerCase } from '@ansim/shared/contract/manager';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/datetime';

/** The recorded outcome of the investigation (76-3 ⑤): the finding, the actions and the summary. */
export function OutcomePanel({ report }: { report: ManagerCase }) {
  const { t, i18n } = useTranslation();
  const { outcome } = report;
  return (
    <Box>
      {report.is_closed && (
        <Alert severity="info" sx={{ mb: outcome ? 2 : 0 }} data-testid="case-closed-notice">
          {t('manager.closed.notice')}
        </Alert>
      )}
      {outcome ? (
        <Box data-testid="case-outcome">
          <Typography sx={{ fontWeight: 700 }}>{t(`manager.outcome.findings.${outcome.finding}`)}</Typography>
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', my: 1 }}>
            {outcome.actions.map((action) => (
              <Chip
                key={action}
                size="small"
                variant="outlined"
                label={t(`manager.outcome.actionLabels.${action}`)}
              />
            ))}
          </Box>
          {outcome.summary && (
            <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {outcome.summary}
            </Typography>
          )}
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {t('manager.outcome.recorded', {
              at: formatDateTime(outcome.recorded_at, i18n.language),
              name: outcome.recorded_by ?? '',
            })}
            {' · '}
            {report.share_outcome_summary
              ? t('manager.outcome.sharedNote')
              : t('manager.outcome.privateNote')}
          </Typography>
        </Box>
      ) : (
        !report.is_closed && <Typography color="text.secondary">{t('manager.outcome.none')}</Typography>
      )}
    </Box>
  );
}
