import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteEvidence } from '../../../api/delete-evidence';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { reportTypeLabel } from '../../../lib/report-type-labels';
import { evidenceIds } from '../../../stores/report-form';
import { useReportForm } from '../../../stores/report-form-store';

/**
 * "Start over", behind a confirmation: a reporter who typed a painful account must not lose it to one stray
 * click. Reset keeps the report type (R-WIZ-5); the files the draft cited are deleted from the server too.
 */
export function ResetDraftButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const reportType = useReportForm((state) => state.form.report_type);

  const confirm = () => {
    const { form, reset } = useReportForm.getState();
    for (const id of evidenceIds(form)) {
      deleteEvidence(id).catch((error) => console.warn('Could not delete a draft evidence file', error));
    }
    reset();
    showSnackbar(t('wizard.resetDone'));
  };

  return (
    <>
      <button type="button" className="shell-button" onClick={() => setOpen(true)}>
        {t('wizard.reset')}
      </button>
      <ConfirmDialog
        open={open}
        title={t('wizard.resetTitle')}
        body={t('wizard.resetBody', { type: reportType ? reportTypeLabel(t, reportType) : '' })}
        confirmLabel={t('wizard.resetConfirm')}
        cancelLabel={t('wizard.resetCancel')}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
