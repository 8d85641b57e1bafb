import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteEvidence } from '../../../api/delete-evidence';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { reportTypeLabel } from '../../../lib/report-type-labels';
import { evidenceIds } from '../../../stores/report-form';
import { useReportForm } from '../../../stores/report-form-store';

/**
 * "Start over", behind a confirmation: a reporter who typed a painful account must not lose it to one stray
 * click. Reset keeps the report type (spec §4); the files the draft cited are deleted from the server too.
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
    setOpen(false);
    showSnackbar(t('wizard.resetDone'));
  };

  return (
    <>
      <Button variant="text" color="inherit" onClick={() => setOpen(true)}>
        {t('wizard.reset')}
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        aria-labelledby="reset-dialog-title"
        aria-describedby="reset-dialog-body"
      >
        <DialogTitle id="reset-dialog-title">{t('wizard.resetTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText id="reset-dialog-body">
            {t('wizard.resetBody', { type: reportType ? reportTypeLabel(t, reportType) : '' })}
          </DialogContentText>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={() => setOpen(false)} autoFocus>
            {t('wizard.resetCancel')}
          </Button>
          <Button onClick={confirm} color="error" variant="contained">
            {t('wizard.resetConfirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
