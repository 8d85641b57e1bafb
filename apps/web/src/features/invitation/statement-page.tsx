import type { StepKey } from '@ansim/shared/constants';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { focusField, StepErrorsProvider } from '../../components/form/step-errors';
import { PageShell } from '../../components/page-shell';
import { paths } from '../../config/paths';
import { useDateTime } from '../../lib/datetime';
import { useStepAddress } from '../../lib/step-address';
import { type InvitationKind, type InvitationView, linkProblem } from './api/invitation-api';
import { InvitationLoadError, InvitationLoading, RespondedView } from './components/invitation-states';
import { LinkProblemView, type ProblemKind } from './components/link-problem-view';
import { ReceiptView } from './components/receipt-view';
import { StatementReview } from './components/statement-review';
import { StatementProvider, useStatementDraft } from './statement-context';
import { statementDraftStore } from './statement-draft-store';
import { readReceipt, type SavedReceipt } from './statement-receipt';
import { firstInvalidStep, statementStepErrors, statementSteps } from './statement-validation';
import { DefendantInfoStep } from './steps/defendant-info-step';
import { DefendantStatementStep } from './steps/defendant-statement-step';
import { DefendantWitnessesStep } from './steps/defendant-witnesses-step';
import { ReferenceStep } from './steps/reference-step';
import { useInvitation, useInvitationToken } from './use-invitation';

const STEP_COMPONENTS: Partial<Record<StepKey, React.ComponentType>> = {
  defendantInfo: DefendantInfoStep,
  defendantStatement: DefendantStatementStep,
  witnesses: DefendantWitnessesStep,
  reference: ReferenceStep,
};

const introPath = (kind: InvitationKind) =>
  kind === 'defendant' ? paths.defendant.to() : paths.reference.to();

/**
 * /defendant/a and /reference/a (R-WEB-1, R-INV-4): the statement itself. Reached from the invitation page once the
 * confidentiality duty is acknowledged; the token comes from this tab's storage (or, if the mail's link was
 * pasted here directly, from the address, which is cleaned at once).
 */
export function StatementPage({ kind }: { kind: InvitationKind }) {
  const { t } = useTranslation();
  const token = useInvitationToken(kind);
  const query = useInvitation(kind, token);
  // Shown after submitting: the token is forgotten then, so the receipt must not depend on it.
  const [receipt, setReceipt] = useState<SavedReceipt | null>(() => (token ? null : readReceipt(kind)));
  const [problem, setProblem] = useState<ProblemKind | null>(null);

  if (receipt) return <ReceiptView kind={kind} receipt={receipt} />;
  if (problem) return <LinkProblemView problem={problem} />;
  if (!token) return <LinkProblemView problem="missing" />;
  if (query.isPending) return <InvitationLoading title={t(`invitation.${kind}.statementTitle`)} />;
  if (query.isError) {
    const found = linkProblem(query.error);
    if (found === 'expired' || found === 'invalid') return <LinkProblemView problem={found} />;
    return (
      <InvitationLoadError
        title={t(`invitation.${kind}.statementTitle`)}
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const invitation = query.data;
  if (invitation.kind !== kind) return <LinkProblemView problem="invalid" />;
  if (invitation.responded_at) return <RespondedView invitation={invitation} />;
  // The statement comes after the acknowledgement (art. 76-3 ⑦), which the invitation page records.
  if (!invitation.acknowledged_at) return <Navigate to={introPath(kind)} replace />;
  return (
    <StatementProvider value={{ kind, token }}>
      <StatementWizard
        invitation={invitation}
        onSubmitted={setReceipt}
        onProblem={setProblem}
        onNotAcknowledged={() => void query.refetch()}
      />
    </StatementProvider>
  );
}

function StatementWizard({
  invitation,
  onSubmitted,
  onProblem,
  onNotAcknowledged,
}: {
  invitation: InvitationView;
  onSubmitted: (receipt: SavedReceipt) => void;
  onProblem: (problem: ProblemKind) => void;
  onNotAcknowledged: () => void;
}) {
  const { t } = useTranslation();
  const { date } = useDateTime();
  const { kind } = invitation;
  const step = useStatementDraft((state) => state.step);
  const setStep = useStatementDraft((state) => state.setStep);
  const form = useStatementDraft((state) => state.form);
  const steps = statementSteps(kind);
  const firstInvalid = useMemo(() => firstInvalidStep(kind, form), [kind, form]);
  useStepAddress({ step, setStep, last: steps.length, firstInvalid });
  const current = Math.min(step, steps.length);
  const isReview = current === steps.length;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shown = useRef(current);

  // A new draft starts with the name the manager addressed the accused person by; they may correct it.
  useEffect(() => {
    const store = statementDraftStore(kind).getState();
    if (kind === 'defendant' && !store.form.reporter_name && !store.form.last_edit && invitation.invitee_name)
      store.setField('reporter_name', invitation.invitee_name);
  }, [kind, invitation.invitee_name]);

  useEffect(() => {
    if (shown.current === current) return;
    shown.current = current;
    window.scrollTo({ top: 0 });
    headingRef.current?.focus();
  }, [current]);

  return (
    <PageShell
      title={t(`invitation.${kind}.statementTitle`)}
      subtitle={t('invitation.statement.subtitle', {
        company: invitation.company_name,
        caseNumber: invitation.case_number,
        date: date(invitation.expires_at),
      })}
      maxWidth="md"
    >
      <Box component="nav" aria-label={t('invitation.statement.progressLabel')} sx={{ mb: 4 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="statement-position">
          {/* The statement's steps are what the invitee writes; the review before sending is not one of them. */}
          {isReview
            ? t('invitation.statement.reviewPosition', { total: steps.length })
            : t('invitation.statement.stepOf', {
                current: current + 1,
                total: steps.length,
                label: t(`steps.${steps[current]!}`),
              })}
        </Typography>
        <Stepper
          activeStep={current}
          alternativeLabel
          sx={{ '& .MuiStepLabel-label': { fontSize: '0.8rem' } }}
          data-testid="statement-stepper"
        >
          {steps.map((key, index) => (
            <Step key={key} completed={index < current}>
              <StepLabel aria-current={index === current ? 'step' : undefined}>{t(`steps.${key}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>
      </Box>
      {isReview ? (
        <StatementReview
          invitation={invitation}
          headingRef={headingRef}
          onSubmitted={onSubmitted}
          onProblem={onProblem}
          onNotAcknowledged={onNotAcknowledged}
        />
      ) : (
        <StepCard key={steps[current]} stepKey={steps[current]!} index={current} headingRef={headingRef} />
      )}
    </PageShell>
  );
}

function StepCard({
  stepKey,
  index,
  headingRef,
}: {
  stepKey: StepKey;
  index: number;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
}) {
  const { t } = useTranslation();
  const form = useStatementDraft((state) => state.form);
  const kind = useStatementDraft((state) => state.kind);
  const serverErrors = useStatementDraft((state) => state.serverErrors);
  const setStep = useStatementDraft((state) => state.setStep);
  // Messages appear once the invitee tries to move on, then follow every edit until the step is valid.
  const [isChecked, setIsChecked] = useState(false);
  const errors = useMemo(() => statementStepErrors(form, stepKey), [form, stepKey]);
  const errorCount = Object.keys(errors).length;
  const visible = useMemo(
    () => (isChecked ? { ...serverErrors, ...errors } : serverErrors),
    [isChecked, serverErrors, errors],
  );
  const summaryRef = useRef<HTMLDivElement>(null);
  const Component = STEP_COMPONENTS[stepKey]!;

  const next = () => {
    if (errorCount > 0) {
      setIsChecked(true);
      requestAnimationFrame(() => {
        const [first] = Object.keys(errors);
        if (!first || !focusField(first)) summaryRef.current?.focus();
      });
      return;
    }
    setStep(index + 1);
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="statement-step-title"
      sx={{ p: { xs: 2, sm: 4 } }}
      data-testid={`statement-step-${stepKey}`}
    >
      <Typography
        id="statement-step-title"
        variant="h2"
        ref={headingRef}
        tabIndex={-1}
        sx={{ mb: 1, outline: 'none' }}
      >
        {t(`steps.${stepKey}`)}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        {t(`invitation.stepDescriptions.${kind}.${stepKey}`)}
      </Typography>
      {isChecked && errorCount > 0 && (
        <Alert severity="warning" role="alert" ref={summaryRef} tabIndex={-1} sx={{ mb: 3 }}>
          {t('invitation.statement.stepInvalid', { count: errorCount })}
        </Alert>
      )}
      <StepErrorsProvider value={visible}>
        <Box component="form" noValidate onSubmit={(event) => event.preventDefault()}>
          <Component />
        </Box>
      </StepErrorsProvider>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 4 }}>
        {t('invitation.statement.draftNote')}
      </Typography>
      <Stack
        direction={{ xs: 'column-reverse', sm: 'row' }}
        spacing={1.5}
        sx={{ justifyContent: 'flex-end', mt: 3 }}
      >
        {index > 0 && (
          <Button variant="outlined" size="large" onClick={() => setStep(index - 1)}>
            {t('invitation.statement.previous')}
          </Button>
        )}
        <Button variant="contained" size="large" onClick={next} data-testid="statement-next">
          {t('invitation.statement.next')}
        </Button>
      </Stack>
    </Paper>
  );
}
