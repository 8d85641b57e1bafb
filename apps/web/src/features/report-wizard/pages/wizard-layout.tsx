import { stepErrors } from '@ansim/shared/report-form-rules';
import { Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { ICON_PATHS } from '../../../components/icons';
import { PageLoading } from '../../../components/page-loading';
import { PageShell } from '../../../components/page-shell';
import { lazyThemed } from '../../../lib/lazy-themed';
import { useStepAddress } from '../../../lib/step-address';
import { useIntakeToken } from '../../../stores/intake-token';
import { stepsFor, useReportForm } from '../../../stores/report-form-store';
import '../../../locales/report-copy';
import { reportTypeLabel, stepLabel } from '../../../lib/report-type-labels';

// Only an anonymous draft needs an intake token; the other types do not load its gate (an MUI page part).
const IntakeGate = lazyThemed(() => import('../components/intake-gate').then((module) => module.IntakeGate));

/**
 * The wrapper of the wizard's step page (R-WEB-1 report-t-a): title and stepper, the step below. It draws
 * without MUI, as MUI's Stepper looked (styles/plain-controls.css), so that the first step can (decision 0025).
 */
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
      <nav aria-label={t('wizard.progressLabel')} className="wizard-progress">
        <p
          className="plain-body2 plain-text-secondary wizard-progress__position"
          data-testid="wizard-position"
        >
          {isReview
            ? t('wizard.reviewPosition', { total: steps.length })
            : `${t('wizard.stepOf', { current: current + 1, total: steps.length })} · ${stepLabel(t, steps[current]!)}`}
        </p>
        <ol className="wizard-stepper" data-testid="wizard-stepper">
          {steps.map((key, index) => {
            const state = index < current ? 'done' : index === current ? 'active' : 'todo';
            return (
              <li key={key} className={`wizard-stepper__step wizard-stepper__step--${state}`}>
                {index > 0 && <span className="wizard-stepper__line" />}
                <span
                  className="wizard-stepper__label"
                  aria-current={state === 'active' ? 'step' : undefined}
                >
                  <svg
                    className="wizard-stepper__icon"
                    viewBox="0 0 24 24"
                    aria-hidden="true"
                    focusable="false"
                  >
                    {state === 'done' ? (
                      <path d={ICON_PATHS.stepDone} />
                    ) : (
                      <>
                        <circle cx="12" cy="12" r="12" />
                        <text
                          className="wizard-stepper__number"
                          x="12"
                          y="12"
                          textAnchor="middle"
                          dominantBaseline="central"
                        >
                          {index + 1}
                        </text>
                      </>
                    )}
                  </svg>
                  <span className="wizard-stepper__name">{stepLabel(t, key)}</span>
                </span>
              </li>
            );
          })}
        </ol>
      </nav>
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
