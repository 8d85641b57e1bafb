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
import { noteIntakeFailure } from '../../../api/draft-headers';
import { ownFilesQuery, useOwnFiles } from '../../../api/evidence-files';
import { REPORTS_PATH, submitReport } from '../../../api/submit-report';
import { ReportFormSummary } from '../../../components/report-form-summary';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { paths } from '../../../config/paths';
import { clearDrafts } from '../../../lib/draft-storage';
import { errorText } from '../../../lib/messages';
import { queryKey } from '../../../lib/query-keys';
import { toRequestError } from '../../../lib/request-error';
import { useReceiptSession } from '../../../stores/receipt-session';
import { stepsFor, useReportForm } from '../../../stores/report-form-store';
import { ContactEmailField } from '../components/contact-email-field';
import { EvidencePreview, previewRows } from '../components/evidence-preview';
import { ReceiptDialog } from '../components/receipt-dialog';
import { ResetDraftButton } from '../components/reset-dialog';
import { isContactEmailValid, readContactEmail } from '../contact-email';
import { citedFiles } from '../evidence-names';
import { formErrors, stepOfFirstError } from '../wizard-errors';

/** The last screen: everything the reporter wrote, a change button per step, and the submission (R-WIZ-3, R-WIZ-7). */
export function ReviewStep({ headingRef }: { headingRef: React.RefObject<HTMLHeadingElement | null> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useReportForm((state) => state.form);
  const isSubmitting = useReportForm((state) => state.isSubmitting);
  const setStep = useReportForm((state) => state.setStep);
  const { data: files } = useOwnFiles();
  const [failure, setFailure] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<{ id: string; receipt: string } | null>(null);
  const [checkContact, setCheckContact] = useState(false);
  const [contactRefusal, setContactRefusal] = useState<string | null>(null);
  const steps = stepsFor(form.report_type);
  const isAnonymous = form.report_type === 'anonym';
  // An anonymous report's files reach the company under generic names; the review shows those names.
  const preview = isAnonymous ? previewRows(citedFiles(form), files) : [];
  const generic = new Map(preview.map((row) => [row.citation.id, row.genericName]));
  const names = isAnonymous ? generic : new Map((files ?? []).map((file) => [file.id, file.name]));
  const hasUnremovable = preview.some((row) => row.file?.metadata === 'unremovable');

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
    const contactEmail = isAnonymous ? readContactEmail().trim() : '';
    if (isAnonymous && (hasUnremovable || !isContactEmailValid(contactEmail))) {
      setCheckContact(true);
      setFailure(hasUnremovable ? t('anonymous.submit.blocked') : t('anonymous.contact.invalid'));
      return;
    }
    store.setSubmitting(true);
    try {
      const { id, receipt } = await submitReport(store.form, store.ensureIdempotencyKey(), contactEmail);
      showSnackbar(t('wizard.submitSuccess'), 'success');
      void queryClient.invalidateQueries({ queryKey: queryKey(REPORTS_PATH) });
      if (receipt) {
        // The receipt cookie is already set; the page guard needs to know which report it opens.
        useReceiptSession.getState().open(id);
        // The draft (its text, intake token and contact address) leaves this device now, not after the
        // dialog: a reload here must not offer to send it again.
        clearDrafts();
        store.markSubmitted();
        setSubmitted({ id, receipt });
        return;
      }
      // The draft is cleared when the wizard route unmounts (wizard-layout.tsx): clearing report_type while
      // still on it would make the route guard send the reporter to /report instead of the new report.
      store.markSubmitted();
      await navigate(`${paths.reportDetail.to(id)}/`, { replace: true });
    } catch (error) {
      if (noteIntakeFailure(error)) return;
      const requestError = toRequestError(error);
      if (requestError.code === 'FILE_METADATA_UNREMOVABLE')
        void queryClient.invalidateQueries({ queryKey: ownFilesQuery().queryKey });
      if (requestError.code === 'CONTACT_EMAIL_NOT_PRIVATE') {
        // Shown at the address field, which takes the focus so a screen reader reads the message with it.
        setContactRefusal(requestError.message);
        document.getElementById('contact_email')?.focus();
        return;
      }
      const message =
        requestError.code === 'USER_NOT_FOUND'
          ? t('wizard.userNotFound')
          : requestError.code === 'FILE_IN_USE'
            ? t('anonymous.submit.fileInUse')
            : errorText(t, requestError);
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
      {isAnonymous && (
        <>
          <EvidencePreview
            rows={preview}
            onGoTo={(citation) => {
              const index = stepOfFirstError(form.report_type, [citation.path]);
              if (index !== null) setStep(index);
            }}
          />
          <ContactEmailField
            showErrors={checkContact}
            serverError={contactRefusal}
            onEdit={() => setContactRefusal(null)}
          />
        </>
      )}
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
            disabled={isSubmitting || submitted !== null}
            data-testid="wizard-submit"
          >
            {isSubmitting ? t('wizard.submitting') : t('wizard.submit')}
          </Button>
        </Box>
      </Stack>
      <ReceiptDialog
        receipt={submitted?.receipt ?? null}
        onContinue={() => {
          if (!submitted) return;
          void navigate(`${paths.reportDetail.to(submitted.id)}/`, { replace: true });
        }}
      />
    </Paper>
  );
}
