import type { StepKey } from '@ansim/shared/constants';
import { stepErrors } from '@ansim/shared/report-form-rules';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { StepErrorsProvider } from '../../../components/form/draft-fields';
import { PageLoading } from '../../../components/page-loading';
import { paths } from '../../../config/paths';
import { stepsFor, useReportForm } from '../../../stores/report-form-store';
import { ResetDraftButton } from '../components/reset-dialog';
import '../../../locales/report-copy';
import { focusField } from '../../../components/form/draft-fields';
import { stepDescription, stepLabel } from '../../../lib/report-type-labels';
import { ActsStep } from '../steps/acts-step';
import { ConcernsStep } from '../steps/concerns-step';
import { HarmsStep } from '../steps/harms-step';
import { PartiesStep } from '../steps/parties-step';
import { ProtectionStep } from '../steps/protection-step';
import { WitnessSuggestionStep } from '../steps/witness-suggestion-step';
import { WitnessesStep } from '../steps/witnesses-step';

// The review screen (summary, receipt dialog, contact field) loads when the reporter reaches it.
const ReviewStep = lazy(() =>
  import('../steps/review-step').then((module) => ({ default: module.ReviewStep })),
);

/** The reporter's steps; reference and defendant statements have their own pages reached by invitation. */
const STEP_COMPONENTS: Partial<Record<StepKey, React.ComponentType>> = {
  parties: PartiesStep,
  acts: ActsStep,
  harms: HarmsStep,
  concerns: ConcernsStep,
  witnessSuggestion: WitnessSuggestionStep,
  protection: ProtectionStep,
  witnesses: WitnessesStep,
};

/**
 * One step of the wizard, or the review screen after the last one. The step index lives in the draft store,
 * so a reload comes back to the same place; moving between steps puts focus on the new step's title.
 */
export default function WizardStepPage() {
  const { t } = useTranslation();
  const reportType = useReportForm((state) => state.form.report_type);
  const step = useReportForm((state) => state.step);
  const steps = stepsFor(reportType);
  const current = Math.min(step, steps.length);
  const shown = useRef(current);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (shown.current === current) return;
    shown.current = current;
    window.scrollTo({ top: 0 });
    headingRef.current?.focus();
  }, [current]);

  if (steps.length === 0) {
    return (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography role="alert">{t('wizard.noType')}</Typography>
        <Button variant="contained" component={RouterLink} to={paths.report.to()}>
          {t('wizard.chooseType')}
        </Button>
      </Stack>
    );
  }
  if (current === steps.length) {
    return (
      <Suspense fallback={<PageLoading />}>
        <ReviewStep headingRef={headingRef} />
      </Suspense>
    );
  }
  const key = steps[current]!;
  const Component = STEP_COMPONENTS[key];
  if (!Component) {
    return (
      <Alert
        severity="info"
        action={<RouterLink to={paths.report.to()}>{t('wizard.chooseType')}</RouterLink>}
      >
        {t('wizard.invitationOnly')}
      </Alert>
    );
  }
  return (
    <StepCard key={key} stepKey={key} index={current} total={steps.length} headingRef={headingRef}>
      <Component />
    </StepCard>
  );
}

function StepCard({
  stepKey,
  index,
  total,
  headingRef,
  children,
}: {
  stepKey: StepKey;
  index: number;
  total: number;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const form = useReportForm((state) => state.form);
  const serverErrors = useReportForm((state) => state.serverErrors);
  const setStep = useReportForm((state) => state.setStep);
  // Messages appear once the reporter tries to move on, then follow every edit until the step is valid.
  const [isChecked, setIsChecked] = useState(false);
  const errors = useMemo(() => stepErrors(form, stepKey), [form, stepKey]);
  const errorCount = Object.keys(errors).length;
  const visible = useMemo(
    () => (isChecked ? { ...serverErrors, ...errors } : serverErrors),
    [isChecked, serverErrors, errors],
  );
  const summaryRef = useRef<HTMLDivElement>(null);
  const isLast = index === total - 1;

  const next = () => {
    if (errorCount > 0) {
      setIsChecked(true);
      // Wait for the messages to render, then put the reporter on the first field that needs them.
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
      aria-labelledby="step-title"
      sx={{ p: { xs: 2, sm: 4 } }}
      data-testid={`wizard-step-${stepKey}`}
    >
      <Typography id="step-title" variant="h2" ref={headingRef} tabIndex={-1} sx={{ mb: 1, outline: 'none' }}>
        {stepLabel(t, stepKey)}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        {stepDescription(t, stepKey, form.report_type)}
      </Typography>
      {isChecked && errorCount > 0 && (
        <Alert severity="warning" role="alert" ref={summaryRef} tabIndex={-1} sx={{ mb: 3 }}>
          {t('wizard.stepInvalid', { count: errorCount })}
        </Alert>
      )}
      <StepErrorsProvider value={visible}>
        <Box component="form" noValidate onSubmit={(event) => event.preventDefault()}>
          {children}
        </Box>
      </StepErrorsProvider>
      <Stack
        direction={{ xs: 'column-reverse', sm: 'row' }}
        spacing={1.5}
        sx={{ justifyContent: 'space-between', mt: 5 }}
      >
        <ResetDraftButton />
        <Box sx={{ display: 'flex', gap: 1.5, flexDirection: { xs: 'column-reverse', sm: 'row' } }}>
          {index > 0 && (
            <Button variant="outlined" size="large" onClick={() => setStep(index - 1)}>
              {t('wizard.previous')}
            </Button>
          )}
          <Button variant="contained" size="large" onClick={next} data-testid="wizard-next">
            {isLast ? t('wizard.toReview') : t('wizard.next')}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}
