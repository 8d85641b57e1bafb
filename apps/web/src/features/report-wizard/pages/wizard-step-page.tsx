import type { StepKey } from '@ansim/shared/constants';
import { stepErrors } from '@ansim/shared/report-form-rules';
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PlainAlert } from '../../../components/form/form-alert';
import { focusField, StepErrorsProvider } from '../../../components/form/step-errors';
import { PageLoading } from '../../../components/page-loading';
import { paths } from '../../../config/paths';
import { lazyThemed, type ThemedLazy } from '../../../lib/lazy-themed';
import { stepsFor, useReportForm } from '../../../stores/report-form-store';
import { ResetDraftButton } from '../components/reset-dialog';
import '../../../locales/report-copy';
import { stepDescription, stepLabel } from '../../../lib/report-type-labels';
import { PartiesStep } from '../steps/parties-step';

/**
 * The first step draws without MUI, as the server sends it (decisions 0023 and 0025). The later steps and the
 * review are MUI forms: each loads with the theme when reached, and all of them start loading as soon as the
 * reporter starts on a step, so that moving on does not wait for the network.
 */
const LATER_STEPS: Partial<Record<StepKey, ThemedLazy<object>>> = {
  acts: lazyThemed(() => import('../steps/acts-step').then((module) => module.ActsStep)),
  harms: lazyThemed(() => import('../steps/harms-step').then((module) => module.HarmsStep)),
  concerns: lazyThemed(() => import('../steps/concerns-step').then((module) => module.ConcernsStep)),
  witnessSuggestion: lazyThemed(() =>
    import('../steps/witness-suggestion-step').then((module) => module.WitnessSuggestionStep),
  ),
  protection: lazyThemed(() => import('../steps/protection-step').then((module) => module.ProtectionStep)),
  witnesses: lazyThemed(() => import('../steps/witnesses-step').then((module) => module.WitnessesStep)),
};
const ReviewStep = lazyThemed(() => import('../steps/review-step').then((module) => module.ReviewStep));

const preloadLaterSteps = () => {
  for (const step of Object.values(LATER_STEPS)) void step?.preload();
  void ReviewStep.preload();
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
      <div className="wizard-step__no-type">
        <p role="alert">{t('wizard.noType')}</p>
        <RouterLink className="shell-button shell-button--contained" to={paths.report.to()}>
          {t('wizard.chooseType')}
        </RouterLink>
      </div>
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
  const Component = key === 'parties' ? PartiesStep : LATER_STEPS[key];
  if (!Component) {
    return (
      <PlainAlert severity="info">
        {t('wizard.invitationOnly')}{' '}
        <RouterLink className="plain-link" to={paths.report.to()}>
          {t('wizard.chooseType')}
        </RouterLink>
      </PlainAlert>
    );
  }
  return (
    <StepCard key={key} stepKey={key} index={current} total={steps.length} headingRef={headingRef}>
      <Suspense fallback={<PageLoading />}>
        <Component />
      </Suspense>
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
  const cardRef = useRef<HTMLElement>(null);
  const isLast = index === total - 1;

  // The reporter has started on the step: the next ones load now, not when "next" is pressed. Native
  // listeners on the card itself, one each, removed after the first.
  useEffect(() => {
    const card = cardRef.current;
    if (!card) return;
    const events = ['focusin', 'pointerdown'] as const;
    for (const event of events) card.addEventListener(event, preloadLaterSteps, { once: true });
    return () => {
      for (const event of events) card.removeEventListener(event, preloadLaterSteps);
    };
  }, []);

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
    <section
      ref={cardRef}
      aria-labelledby="step-title"
      className="plain-surface wizard-step"
      data-testid={`wizard-step-${stepKey}`}
    >
      <h2 id="step-title" ref={headingRef} tabIndex={-1} className="wizard-step__title">
        {stepLabel(t, stepKey)}
      </h2>
      <p className="plain-text-secondary wizard-step__description">
        {stepDescription(t, stepKey, form.report_type)}
      </p>
      {isChecked && errorCount > 0 && (
        <PlainAlert
          severity="warning"
          role="alert"
          ref={summaryRef}
          tabIndex={-1}
          className="wizard-step__invalid"
        >
          {t('wizard.stepInvalid', { count: errorCount })}
        </PlainAlert>
      )}
      <StepErrorsProvider value={visible}>
        <form noValidate onSubmit={(event) => event.preventDefault()}>
          {children}
        </form>
      </StepErrorsProvider>
      <div className="wizard-step__actions">
        <ResetDraftButton />
        <div className="wizard-step__moves">
          {index > 0 && (
            <button
              type="button"
              className="shell-button shell-button--outlined shell-button--large"
              onClick={() => setStep(index - 1)}
            >
              {t('wizard.previous')}
            </button>
          )}
          <button
            type="button"
            className="shell-button shell-button--contained shell-button--large"
            onClick={next}
            data-testid="wizard-next"
          >
            {isLast ? t('wizard.toReview') : t('wizard.next')}
          </button>
        </div>
      </div>
    </section>
  );
}
