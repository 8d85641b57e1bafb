import { stepErrors } from '@ansim/shared/report-form-rules';
import Box from '@mui/material/Box';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { PageLoading } from '../../../components/page-loading';
import { PageShell } from '../../../components/page-shell';
import { useStepAddress } from '../../../lib/step-address';
import { useIntakeToken } from '../../../stores/intake-token';
import { stepsFor, useReportForm } from '../../../stores/report-form-store';
import '../../../locales/report-copy';
import { reportTypeLabel, stepLabel } from '../../../lib/report-type-labels';

// Only an anonymous draft needs an intake token; the other types do not load its gate.
const IntakeGate = lazy(() =>
  import('../components/intake-gate').then((module) => ({ default: module.IntakeGate })),
);

/** The wrapper of the wizard's step page (spec §2 report-t-a): title and stepper, the step below. */
export default function WizardLayout() {
  const { t } = useTranslation();
  const reportType = useReportForm((state) => state.form.report_type);
  const step = useReportForm((state) => state.step);
  const setStep = useReportForm((state) => state.setStep);
  const form = useReportForm((state) => state.form);
  const firstInvalid = useMemo(() => {
    const index = stepsFor(form.report_type).findIndex(
      (key) => Object.keys(stepErrors(form, key)).length > 0,
    );
    return index >= 0 ? index : null;
  }, [form]);
  useStepAddress({ step, setStep, last: stepsFor(reportType).length, firstInvalid });
  // After a successful submission the draft leaves the device, but only once this route is gone (see
  // review-step.tsx); the unmount happens after the navigation to the report has committed.
  useEffect(
    () => () => {
      if (!useReportForm.getState().isSubmitted) return;
      useReportForm.getState().clear();
      // The server deleted the intake session at submission; the next anonymous draft gets its own.
      useIntakeToken.getState().clear();
    },
    [],
  );
  if (!reportType) return null;
  const steps = stepsFor(reportType);
  const current = Math.min(step, steps.length);
  const isReview = current === steps.length;

  return (
    <PageShell title={t('wizard.title', { type: reportTypeLabel(t, reportType) })} maxWidth="md">
      <Box component="nav" aria-label={t('wizard.progressLabel')} sx={{ mb: 4 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="wizard-position">
          {isReview
            ? t('wizard.reviewPosition', { total: steps.length })
            : `${t('wizard.stepOf', { current: current + 1, total: steps.length })} · ${stepLabel(t, steps[current]!)}`}
        </Typography>
        <Stepper
          activeStep={current}
          alternativeLabel
          data-testid="wizard-stepper"
          sx={{
            // At phone width five labels cannot sit side by side; the numbered dots and the line above remain.
            '& .MuiStepLabel-label': { display: { xs: 'none', sm: 'block' }, fontSize: '0.8rem' },
          }}
        >
          {steps.map((key, index) => (
            <Step key={key} completed={index < current}>
              <StepLabel aria-current={index === current ? 'step' : undefined}>{stepLabel(t, key)}</StepLabel>
            </Step>
          ))}
        </Stepper>
      </Box>
      {reportType === 'anonym' ? (
        <Suspense fallback={<PageLoading />}>
          <IntakeGate>
            <Outlet />
          </IntakeGate>
        </Suspense>
      ) : (
        <Outlet />
      )}
    </PageShell>
  );
}
