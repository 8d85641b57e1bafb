import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ReportFormSummary } from '../../../components/report-form-summary';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/messages';
import { queryKey } from '../../../lib/query-keys';
import { toRequestError } from '../../../lib/request-error';
import { useOwnFiles } from '../api/evidence-files';
import { REPORTS_PATH, submitReport } from '../api/submit-report';
import { ResetDraftButton } from '../components/reset-dialog';
import { stepsFor, useReportForm } from '../report-form-store';
import { formErrors, stepOfFirstError } from '../wizard-errors';

/** The last screen: everything the reporter wrote, a change button per step, and the submission (spec §4). */
export function ReviewStep({ headingRef }: { headingRef: React.RefObject<HTMLHeadingElement | null> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useReportForm((state) => state.form);
  const isSubmitting = useReportForm((state) => state.isSubmitting);
  const setStep = useReportForm((state) => state.setStep);
  const { data: files } = useOwnFiles();
  const [failure, setFailure] = useState<string | null>(null);
  const steps = stepsFor(form.report_type);
  const names = new Map((files ?? []).map((file) => [file.id, file.name]));

  /** Puts field messages on their fields and takes the reporter to the step holding the first one. */
  const showFieldErrors = (details: Record<string, string>): boolean => {
    const store = useReportForm.getState();
    const index = stepOfFirstError(store.form.report_type, Object.keys(details));
    if (index === null) return false;
    store.setServerErrors(details);
    store.setStep(index);
    return true;
  };

  const submit = async () => {
    const store = useReportForm.getState();
    if (store.isSubmitting) return;
    setFailure(null);
    const local = formErrors(store.form);
    if (Object.keys(local).length > 0 && showFieldErrors(local)) {
      showSnackbar(t('wizard.fixBeforeSubmit'), 'error');
      return;
    }
    store.setSubmitting(true);
    try {
      const { id } = await submitReport(store.form, store.ensureIdempotencyKey());
      showSnackbar(t('wizard.submitSuccess'), 'success');
      void queryClient.invalidateQueries({ queryKey: queryKey(REPORTS_PATH) });
      // The draft is cleared when the wizard route unmounts (wizard-layout.tsx): clearing report_type while
      // still on it would make the route guard send the reporter to /report instead of the new report.
      store.markSubmitted();
      await navigate(`${paths.reportDetail.to(id)}/`, { replace: true });
    } catch (error) {
      const requestError = toRequestError(error);
      const message =
        requestError.code === 'USER_NOT_FOUND' ? t('wizard.userNotFound') : errorText(t, requestError);
      if (requestError.details && showFieldErrors(requestError.details)) {
        showSnackbar(message, 'error');
        return;
      }
      setFailure(message);
      showSnackbar(message, 'error');
    } finally {
      useReportForm.getState().setSubmitting(false);
    }
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="step-title"
      sx={{ p: { xs: 2, sm: 4 } }}
      data-testid="wizard-review"
    >
      <Typography id="step-title" variant="h2" ref={headingRef} tabIndex={-1} sx={{ mb: 1, outline: 'none' }}>
        {t('wizard.reviewTitle')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('wizard.reviewBody')}
      </Typography>
      <ReportFormSummary
        form={form}
        headingLevel="h3"
        fileName={(id) => names.get(id) ?? t('evidence.unnamed')}
        onEditStep={setStep}
      />
      <Alert severity="info" sx={{ mt: 4 }}>
        {form.report_type === 'anonym' ? t('wizard.submitNoticeAnonym') : t('wizard.submitNotice')}
      </Alert>
      {failure && (
        <Alert
          severity="error"
          role="alert"
          sx={{ mt: 2, whiteSpace: 'pre-line' }}
          data-testid="submit-error"
        >
          {failure}
        </Alert>
      )}
      <Stack
        direction={{ xs: 'column-reverse', sm: 'row' }}
        spacing={1.5}
        sx={{ justifyContent: 'space-between', mt: 4 }}
      >
        <ResetDraftButton />
        <Box sx={{ display: 'flex', gap: 1.5, flexDirection: { xs: 'column-reverse', sm: 'row' } }}>
          <Button variant="outlined" size="large" onClick={() => setStep(steps.length - 1)}>
            {t('wizard.previous')}
          </Button>
          <Button
            variant="contained"
            size="large"
            onClick={() => void submit()}
            disabled={isSubmitting}
            data-testid="wizard-submit"
          >
            {isSubmitting ? t('wizard.submitting') : t('wizard.submit')}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}
