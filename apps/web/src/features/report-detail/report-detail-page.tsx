import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { endReceiptSession } from '../../api/receipt';
import { PageShell } from '../../components/page-shell';
import { ReportFormSummary } from '../../components/report-form-summary';
import { paths } from '../../config/paths';
import { useIsLoggedIn } from '../../lib/login-state';
import { errorText } from '../../lib/messages';
import { isRequestError } from '../../lib/request-error';
import { isReceiptSessionFor, useReceiptSession } from '../../stores/receipt-session';
import '../../locales/anonymous-copy';
import { fileDownloadUrl } from '../../api/evidence-files';
import { formatBytes } from '../../components/form/format-bytes';
import { useDateTime } from '../../lib/datetime';
import { STATUS_CHIPS } from '../../lib/report-status';
import { reportTypeLabel } from '../../lib/report-type-labels';
import { markReportSeen } from '../../lib/seen-reports';
import '../../locales/report-copy';
import { type ReportDetail, useReport } from './api/get-report';
import { useReportEvents } from './api/report-events';
import { MeasureOpinions, OutcomeNotice } from './components/measure-opinions';
import { MessageThread } from './components/message-thread';

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  const id = useId();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={id}
      sx={{ p: { xs: 2, sm: 3 } }}
      data-testid={testId}
    >
      <Typography id={id} variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** /report-detail/{id}: the reporter's own report, its procedure so far and the thread with the 담당자. */
export default function ReportDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const report = useReport(id);
  useReportEvents(id);
  const isLoggedIn = useIsLoggedIn();
  const expired = report.isError && isRequestError(report.error, 'UNAUTHORIZED');

  // A receipt session the server no longer knows (2 hours are up) is forgotten here too.
  useEffect(() => {
    if (expired && isReceiptSessionFor(useReceiptSession.getState().session, id))
      useReceiptSession.getState().close();
  }, [expired, id]);

  if (report.isPending) {
    return (
      <PageShell title={t('reportDetail.loadingTitle')}>
        <Stack spacing={2} aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton variant="rounded" height={120} />
          <Skeleton variant="rounded" height={240} />
        </Stack>
      </PageShell>
    );
  }
  if (report.isError) {
    return (
      <PageShell title={t('reportDetail.notFoundTitle')}>
        <Alert severity="error" sx={{ mb: 3 }}>
          {errorText(t, report.error)}
        </Alert>
        {isLoggedIn ? (
          <Button variant="outlined" component={RouterLink} to={paths.dashboard.to()}>
            {t('reportDetail.backToDashboard')}
          </Button>
        ) : (
          <Button variant="outlined" component={RouterLink} to={paths.receipt.to()}>
            {t('anonymous.session.reopen')}
          </Button>
        )}
      </PageShell>
    );
  }
  return <ReportDetailView report={report.data} />;
}

function ReportDetailView({ report }: { report: ReportDetail }) {
  const { t } = useTranslation();
  // What is on screen now is what the dashboard's "new" marker compares against next time. Written before the
  // paint: someone who leaves the moment the page shows has still seen it.
  useLayoutEffect(() => markReportSeen(report.id, report.updated_at), [report.id, report.updated_at]);
  const { dateTime: formatDateTime } = useDateTime();
  const names = new Map(report.files.map((file) => [file.id, file.name]));
  const { statements } = report;

  return (
    <PageShell
      title={t('reportDetail.title', { number: report.case_number })}
      subtitle={t('reportDetail.body')}
    >
      <Stack spacing={3}>
        <Section title={t('reportDetail.overview')} testId="report-overview">
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 1 }}>
            <Chip
              {...STATUS_CHIPS[report.status]}
              label={t(`statuses.${report.status}`)}
              data-testid="report-status"
            />
            <Typography>{reportTypeLabel(t, report.report_type)}</Typography>
          </Box>
          <Typography variant="body2" color="text.secondary">
            <span data-testid="report-submitted-at">
              {t('dashboard.submittedAt', { date: formatDateTime(report.created_at) })}
            </span>{' '}
            · {t('dashboard.updatedAt', { date: formatDateTime(report.updated_at) })}
          </Typography>
          {report.report_type === 'anonym' && (
            <Alert severity="info" sx={{ mt: 2 }}>
              {t('summary.anonymNote')}
            </Alert>
          )}
        </Section>

        <Section title={t('reportDetail.timeline')} testId="report-timeline">
          <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {report.history.map((entry, index) => (
              <Box
                component="li"
                // biome-ignore lint/suspicious/noArrayIndexKey: history rows are append-only and ordered.
                key={index}
                sx={{
                  position: 'relative',
                  pl: 3,
                  pb: index === report.history.length - 1 ? 0 : 2.5,
                  borderLeft: 2,
                  borderColor: 'divider',
                  ml: 1,
                }}
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
                <Typography sx={{ fontWeight: 700 }}>{t(`statuses.${entry.to_status}`)}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {formatDateTime(entry.created_at)}
                </Typography>
                {entry.note_for_reporter && (
                  <Typography sx={{ mt: 0.5, whiteSpace: 'pre-line' }}>{entry.note_for_reporter}</Typography>
                )}
              </Box>
            ))}
          </Box>
        </Section>

        {report.outcome && (
          <Section title={t('reportDetail.outcome.title')} testId="report-outcome-section">
            <OutcomeNotice outcome={report.outcome} />
          </Section>
        )}

        <Section title={t('reportDetail.measures')} testId="report-measures">
          <MeasureOpinions report={report} />
        </Section>

        <Section title={t('reportDetail.statements')} testId="report-statements">
          <Stack component="ul" spacing={0.5} sx={{ m: 0, pl: 2.5 }}>
            <li>
              <Typography>{t(`reportDetail.defendantStatement.${statements.defendant}`)}</Typography>
            </li>
            <li>
              <Typography>
                {statements.references_requested === 0
                  ? t('reportDetail.referencesNone')
                  : t('reportDetail.references', {
                      requested: statements.references_requested,
                      responded: statements.references_responded,
                    })}
              </Typography>
            </li>
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('reportDetail.statementsNote')}
          </Typography>
        </Section>

        <Section title={t('reportDetail.evidence')} testId="report-files">
          {report.files.length === 0 ? (
            <Typography color="text.secondary">{t('reportDetail.noFiles')}</Typography>
          ) : (
            <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
              {report.files.map((file) => (
                <Box component="li" key={file.id} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                  <FileDownloadOutlinedIcon fontSize="small" color="action" aria-hidden="true" />
                  <Link href={fileDownloadUrl(file.id)} download sx={{ overflowWrap: 'anywhere' }}>
                    {file.name}
                  </Link>
                  <Typography variant="caption" color="text.secondary">
                    {formatBytes(file.size)}
                  </Typography>
                </Box>
              ))}
            </Stack>
          )}
        </Section>

        <Section title={t('reportDetail.content')} testId="report-content">
          <ReportFormSummary
            form={report.form}
            headingLevel="h3"
            fileName={(fileId) => names.get(fileId) ?? t('evidence.unnamed')}
            fileHref={fileDownloadUrl}
          />
        </Section>

        <Section title={t('reportDetail.messagesTitle')} testId="report-messages">
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {report.report_type === 'anonym'
              ? t('reportDetail.messagesAnonymNote')
              : t('reportDetail.messagesNote')}
          </Typography>
          <MessageThread reportId={report.id} isAnonymous={report.report_type === 'anonym'} />
        </Section>

        <DetailFooter reportId={report.id} />
      </Stack>
    </PageShell>
  );
}

/**
 * A report opened with a receipt has no account behind it: instead of "my reports", the reporter ends the
 * receipt session, which a shared device should not keep open.
 */
function DetailFooter({ reportId }: { reportId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isLoggedIn = useIsLoggedIn();
  const inReceiptSession = useReceiptSession((state) => isReceiptSessionFor(state.session, String(reportId)));

  const end = async () => {
    try {
      await endReceiptSession();
    } catch (error) {
      console.warn('Could not end the receipt session on the server', error);
    }
    useReceiptSession.getState().close();
    await navigate(isLoggedIn ? paths.dashboard.to() : paths.receipt.to(), { replace: true });
  };

  return (
    <Box>
      {inReceiptSession && (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ mb: 1.5 }}
          data-testid="receipt-session-note"
        >
          {t('anonymous.session.note')}
        </Typography>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        {inReceiptSession && (
          <Button variant="contained" onClick={() => void end()} data-testid="receipt-session-end">
            {t('anonymous.session.end')}
          </Button>
        )}
        {isLoggedIn && (
          <Button variant="outlined" component={RouterLink} to={paths.dashboard.to()}>
            {t('reportDetail.backToDashboard')}
          </Button>
        )}
      </Stack>
    </Box>
  );
}
