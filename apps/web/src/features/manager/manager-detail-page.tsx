import type { CaseMessage, ManagerCase } from '@ansim/shared/contract/manager';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { ManagerGate, ManagerOnly } from '../../components/manager-gate';
import { PageShell } from '../../components/page-shell';
import { showSnackbar } from '../../components/snackbar/snackbar-store';
import { paths } from '../../config/paths';
import { isRequestError } from '../../lib/request-error';
import { useOpenedOnce } from '../../lib/use-opened-once';
import { useCaseEvents } from './api/case-events';
import { useManagerCase } from './api/get-case';
import { AssigneesPanel } from './components/assignees-panel';
import { AuditLog } from './components/audit-log';
import { CaseContent } from './components/case-content';
import { CaseHeader } from './components/case-header';
import { CaseTimeline } from './components/case-timeline';
import { EvidenceList } from './components/evidence-list';
import { InvitationsPanel } from './components/invitations-panel';
import { MeasuresPanel } from './components/measures-panel';
import { MessagesPanel } from './components/messages-panel';
import { OutcomePanel } from './components/outcome-panel';
import { PrintStyles } from './components/print-styles';
import { Section } from './components/section';
import { StatementsPanel } from './components/statements-panel';

// The dialog, with MUI's Modal and radio groups, loads with the first click on 상태 변경, not with the case.
const StatusDialog = lazy(() =>
  import('./components/status-dialog').then((module) => ({ default: module.StatusDialog })),
);

const twoColumns = (left: string) =>
  ({
    display: 'grid',
    gap: 3,
    gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: `${left} minmax(0, 1fr)` },
  }) as const;

function CaseFile({ report, live }: { report: ManagerCase; live: ReturnType<typeof useCaseEvents> }) {
  const { t } = useTranslation();
  const [statusOpen, setStatusOpen] = useState(false);
  const statusOpened = useOpenedOnce(statusOpen);
  return (
    <>
      <PrintStyles />
      <CaseHeader report={report} live={live} onChangeStatus={() => setStatusOpen(true)} />
      <Box sx={{ display: 'grid', gap: 3 }}>
        <Box className="case-grid" sx={twoColumns('minmax(0, 1.4fr)')}>
          <Section title={t('manager.sections.account')} testId="section-account">
            <CaseContent report={report} />
          </Section>
          <Section title={t('manager.sections.statements')} testId="section-statements">
            <StatementsPanel statements={report.statements} />
          </Section>
        </Box>
        <Section title={t('manager.sections.assignees')} testId="section-assignees">
          <AssigneesPanel report={report} />
        </Section>
        <Section title={t('manager.sections.evidence')} testId="section-evidence">
          <EvidenceList files={report.files} />
        </Section>
        <Box className="case-grid" sx={twoColumns('minmax(0, 1fr)')}>
          <Section title={t('manager.sections.timeline')} testId="section-timeline">
            <CaseTimeline history={report.history} />
          </Section>
          <Section title={t('manager.sections.messages')} testId="section-messages">
            <MessagesPanel report={report} />
          </Section>
        </Box>
        {(report.outcome || report.is_closed) && (
          <Section title={t('manager.sections.outcome')} testId="section-outcome">
            <OutcomePanel report={report} />
          </Section>
        )}
        <Box className="case-grid" sx={twoColumns('minmax(0, 1fr)')}>
          <Section title={t('manager.sections.measures')} testId="section-measures">
            <MeasuresPanel report={report} />
          </Section>
          <Section title={t('manager.sections.invitations')} testId="section-invitations">
            <InvitationsPanel report={report} />
          </Section>
        </Box>
        <Section title={t('manager.sections.audit')} testId="section-audit">
          <AuditLog report={report} />
        </Section>
      </Box>
      {statusOpened && (
        <Suspense fallback={null}>
          <StatusDialog report={report} open={statusOpen} onClose={() => setStatusOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

function CaseNotFound() {
  const { t } = useTranslation();
  return (
    <PageShell title={t('manager.detail.notFoundTitle')}>
      <Typography sx={{ mb: 3 }} data-testid="case-not-found">
        {t('manager.detail.notFoundBody')}
      </Typography>
      <Button variant="contained" component={RouterLink} to={paths.manager.to()}>
        {t('manager.header.backToList')}
      </Button>
    </PageShell>
  );
}

function ManagerCaseView({ id }: { id: string }) {
  const { t } = useTranslation();
  const query = useManagerCase(id);
  const onReporterMessage = useCallback(
    (messages: CaseMessage[]) =>
      showSnackbar(t('manager.messages.arrived', { count: messages.length }), 'info'),
    [t],
  );
  const live = useCaseEvents(id, onReporterMessage);

  if (isRequestError(query.error, 'NOT_FOUND') || isRequestError(query.error, 'VALIDATION_ERROR')) {
    return <CaseNotFound />;
  }
  if (isRequestError(query.error, 'FORBIDDEN')) return <ManagerOnly />;
  const report = query.data;
  return (
    <PageShell
      title={
        report
          ? t('manager.detail.title', { caseNumber: report.case_number })
          : t('manager.detail.loadingTitle')
      }
      maxWidth="lg"
    >
      {query.error && <Alert severity="error">{query.error.message}</Alert>}
      {!report && !query.error && (
        <Box aria-busy="true" aria-label={t('common.loading')} sx={{ display: 'grid', gap: 2 }}>
          <Skeleton variant="rounded" height={220} />
          <Skeleton variant="rounded" height={420} />
        </Box>
      )}
      {report && <CaseFile report={report} live={live} />}
    </PageShell>
  );
}

export default function ManagerDetailPage() {
  const { id = '' } = useParams();
  return (
    <ManagerGate>
      <ManagerCaseView key={id} id={id} />
    </ManagerGate>
  );
}
