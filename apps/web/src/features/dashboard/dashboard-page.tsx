import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useCurrentUser } from '../../components/header/use-current-user';
import { PageShell } from '../../components/page-shell';
import { paths } from '../../config/paths';
import { useDateTime } from '../../lib/datetime';
import { useIsLoggedIn } from '../../lib/login-state';
import { errorText } from '../../lib/messages';
import { useReportForm } from '../../stores/report-form-store';
import { PendingReceiptsPanel, SavedReceiptsPanel } from './components/saved-receipts-panel';
import '../../locales/report-copy';
import { STATUS_CHIPS } from '../../lib/report-status';
import { reportTypeLabel } from '../../lib/report-type-labels';
import { isReportUnread, readSeenReports } from '../../lib/seen-reports';
import { MY_REPORTS_PAGE_SIZE, type ReportSummary, useMyReports } from './api/list-my-reports';

export default function DashboardPage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const draftType = useReportForm((state) => state.form.report_type);
  const isLoggedIn = useIsLoggedIn();
  const draftStep = useReportForm((state) => state.step);
  const [page, setPage] = useState(1);
  const reports = useMyReports(page);
  const pageCount = reports.data ? Math.ceil(reports.data.count / MY_REPORTS_PAGE_SIZE) : 0;

  return (
    <PageShell
      title={t('dashboard.title')}
      subtitle={
        <span data-testid="dashboard-greeting">
          {user ? t('dashboard.greeting', { name: user.name }) : t('dashboard.greetingAnonymous')}
        </span>
      }
    >
      {user && (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {user.company ? t('dashboard.company', { company: user.company.name }) : t('dashboard.noCompany')}{' '}
          <Link component={RouterLink} to={paths.accountSecurity.to()}>
            {t('mfa.dashboardLink')}
          </Link>
        </Typography>
      )}
      <PendingReceiptsPanel enabled={isLoggedIn} />
      {draftType && (
        <Paper variant="outlined" sx={{ p: 3, mb: 4 }}>
          <Typography variant="h2" sx={{ fontSize: '1.15rem', mb: 1 }}>
            {t('dashboard.draftTitle')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('dashboard.draftBody', { type: reportTypeLabel(t, draftType) })}
          </Typography>
          <Button variant="outlined" component={RouterLink} to={paths.reportTA.to(draftStep)}>
            {t('dashboard.continueDraft')}
          </Button>
        </Paper>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h2" sx={{ fontSize: '1.25rem', flex: 1 }}>
          {t('dashboard.listHeading')}
        </Typography>
        {reports.data && reports.data.count > 0 && (
          <Button variant="contained" component={RouterLink} to={paths.report.to()}>
            {t('dashboard.newReport')}
          </Button>
        )}
      </Box>
      {reports.isPending && (
        <Stack spacing={1.5} aria-busy="true" aria-label={t('common.loading')} data-testid="reports-loading">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} variant="rounded" height={88} />
          ))}
        </Stack>
      )}
      {reports.isError && <Alert severity="error">{errorText(t, reports.error)}</Alert>}
      {reports.data && reports.data.count === 0 && (
        <Paper
          variant="outlined"
          sx={{ p: { xs: 3, sm: 4 }, textAlign: 'center' }}
          data-testid="reports-empty"
        >
          <Typography variant="h3" sx={{ fontSize: '1.1rem', mb: 1 }}>
            {t('dashboard.emptyTitle')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {t('dashboard.emptyBody')}
          </Typography>
          <Button variant="contained" size="large" component={RouterLink} to={paths.report.to()}>
            {t('landing.cta')}
          </Button>
        </Paper>
      )}
      {reports.data && reports.data.count > 0 && (
        <>
          <Stack
            component="ul"
            spacing={1.5}
            sx={{ listStyle: 'none', p: 0, m: 0 }}
            data-testid="reports-list"
          >
            {reports.data.results.map((report) => (
              <ReportRow key={report.id} report={report} />
            ))}
          </Stack>
          {pageCount > 1 && (
            <Pagination
              sx={{ mt: 3, display: 'flex', justifyContent: 'center' }}
              count={pageCount}
              page={page}
              onChange={(_, next) => setPage(next)}
              getItemAriaLabel={(type, item, selected) =>
                t(`dashboard.pagination.${type}`, { page: item, context: selected ? 'current' : undefined })
              }
            />
          )}
        </>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
        {t('dashboard.listBody')}
      </Typography>
      <SavedReceiptsPanel />
    </PageShell>
  );
}

function ReportRow({ report }: { report: ReportSummary }) {
  const { t } = useTranslation();
  const { date: formatDate } = useDateTime();
  const isUnread = isReportUnread(report, readSeenReports());
  return (
    <Box component="li">
      <Card variant="outlined">
        <CardActionArea
          component={RouterLink}
          to={`${paths.reportDetail.to(report.id)}/`}
          sx={{ p: 2, display: 'flex', alignItems: 'center', gap: 2 }}
          data-testid="report-row"
        >
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 0.5 }}>
              <Typography variant="h3" sx={{ fontSize: '1.05rem', fontWeight: 700 }}>
                {t('dashboard.caseNumber', { number: report.case_number })}
              </Typography>
              <Chip
                size="small"
                {...STATUS_CHIPS[report.status]}
                label={t(`statuses.${report.status}`)}
                data-testid="report-status"
              />
              {isUnread && (
                <Typography
                  component="span"
                  variant="body2"
                  color="primary"
                  sx={{ fontWeight: 700, display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
                  data-testid="report-unread"
                >
                  <Box
                    component="span"
                    aria-hidden="true"
                    sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'primary.main' }}
                  />
                  {t('dashboard.unread')}
                </Typography>
              )}
            </Box>
            <Typography variant="body2" color="text.secondary">
              {reportTypeLabel(t, report.report_type)} ·{' '}
              {t('dashboard.submittedAt', { date: formatDate(report.created_at) })}
              {report.updated_at !== report.created_at &&
                ` · ${t('dashboard.updatedAt', { date: formatDate(report.updated_at) })}`}
            </Typography>
          </Box>
          <ChevronRightIcon color="action" aria-hidden="true" />
        </CardActionArea>
      </Card>
    </Box>
  );
}
