import type { CaseMeasure } from '@ansim/shared/contract/manager';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/text-input';
import { useUpdateMeasure } from '../api/measures';
import { protectionLabel } from './labels';

/**
 * Art. 76-3 ④: refusing a measure the reporter asked for needs a reason, and so does carrying out a measure the
 * reporter objected to; either is recorded with the date.
 */
export default function MeasureReasonDialog({
  target,
  reportId,
  onClose,
}: {
  target: { measure: CaseMeasure; decision: 'granted' | 'refused' } | null;
  reportId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const mutation = useUpdateMeasure(reportId);
  const measure = target?.measure ?? null;
  const granting = target?.decision === 'granted';
  const [reason, setReason] = useState('');
  const [empty, setEmpty] = useState(false);
  const close = () => {
    setReason('');
    setEmpty(false);
    mutation.reset();
    onClose();
  };
  return (
    <Dialog open={target !== null} onClose={close} fullWidth maxWidth="sm" aria-labelledby="refuse-title">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!target) return;
          if (!reason.trim()) {
            setEmpty(true);
            return;
          }
          mutation.mutate(
            { measureId: target.measure.id, decision: target.decision, reason: reason.trim() },
            { onSuccess: close },
          );
        }}
      >
        <DialogTitle id="refuse-title">
          {t(granting ? 'manager.measures.grantTitle' : 'manager.measures.refuseTitle', {
            measure: measure ? protectionLabel(t, measure.measure) : '',
          })}
        </DialogTitle>
        <DialogContent>
          {mutation.error && (
            <Alert severity="error" role="alert" sx={{ mb: 2 }}>
              {mutation.error.message}
            </Alert>
          )}
          <TextInput
            fullWidth={false}
            id="measure-refuse-reason"
            label={t('manager.measures.reason')}
            helperText={
              empty
                ? t('manager.measures.reasonRequired')
                : t(granting ? 'manager.measures.grantReasonHelp' : 'manager.measures.reasonHelp')
            }
            error={empty}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              setEmpty(false);
            }}
            multiline
            minRows={3}
            sx={{ mt: 1 }}
            slotProps={{ htmlInput: { maxLength: 5000 } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{t('manager.common.cancel')}</Button>
          <Button
            type="submit"
            variant="contained"
            color={granting ? 'success' : 'error'}
            disabled={mutation.isPending}
          >
            {t(granting ? 'manager.measures.grant' : 'manager.measures.refuse')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
