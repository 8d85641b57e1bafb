import type { ReportType } from '@ansim/shared/constants';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AnonymityFacts } from '../../../components/anonymity-facts';
import { PageShell } from '../../../components/page-shell';
import { paths } from '../../../config/paths';
import { formatDateTime } from '../../../lib/datetime';
import { stepsFor, useReportForm } from '../../../stores/report-form-store';
import { StepList } from '../components/step-list';
import '../../../locales/report-copy';
import { reportTypeLabel } from '../../../lib/report-type-labels';

/** What to have at hand for each type, by the steps it asks for. */
const PREPARE: Record<ReportType, readonly string[]> = {
  anonym: ['accused', 'acts', 'evidence', 'concerns'],
  brief: ['reporter', 'accused', 'acts', 'evidence', 'witnesses'],
  formal: ['reporter', 'accused', 'acts', 'evidence', 'protection', 'witnesses'],
  reference: ['invitation'],
  defendant: ['invitation'],
};

/** /report/t: what the chosen type means and which steps follow. The router guard ensures a type is set. */
export default function ReportGuidePage() {
  const { t, i18n } = useTranslation();
  const reportType = useReportForm((state) => state.form.report_type);
  const lastEdit = useReportForm((state) => state.form.last_edit);
  const step = useReportForm((state) => state.step);
  if (!reportType) return null;
  const label = reportTypeLabel(t, reportType);
  const hasProgress = step > 0;

  return (
    <PageShell title={t('reportGuide.title', { type: label })} maxWidth="md">
      <Typography sx={{ mb: 4 }}>{t(`reportGuide.guides.${reportType}`)}</Typography>
      {reportType === 'anonym' && (
        <Box sx={{ mb: 4 }}>
          <AnonymityFacts />
        </Box>
      )}
      <Typography variant="h2" sx={{ mb: 2 }}>
        {t('reportGuide.stepsHeading')}
      </Typography>
      <StepList steps={stepsFor(reportType)} type={reportType} />
      <Typography variant="h2" sx={{ mt: 4, mb: 2 }}>
        {t('reportGuide.prepareHeading')}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 3, display: 'grid', gap: 1 }}>
        {PREPARE[reportType].map((item) => (
          <Typography component="li" key={item}>
            {t(`reportGuide.prepare.${item}`)}
          </Typography>
        ))}
      </Box>
      <Alert severity="info" sx={{ mt: 3 }}>
        {t('reportGuide.draftNote')}
      </Alert>
      {lastEdit && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {t('reportGuide.lastEdit', {
            time: formatDateTime(lastEdit, i18n.language),
          })}
        </Typography>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 4 }}>
        <Button variant="contained" size="large" component={RouterLink} to={paths.reportTA.to(step)}>
          {hasProgress ? t('reportGuide.continue') : t('reportGuide.start')}
        </Button>
        <Button variant="outlined" size="large" component={RouterLink} to={paths.report.to()}>
          {t('reportGuide.changeType')}
        </Button>
      </Stack>
    </PageShell>
  );
}
