import { CASE_FIELD_MESSAGES_KO } from '@ansim/shared/case-messages.ko';
import type { CaseMeasure, MeasureUpdateBody, measureUpdateBody } from '@ansim/shared/contract/manager';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { registerFieldMessages } from '../../../lib/messages';
import { useUpdateMeasure } from '../api/measures';
import { protectionLabel } from './labels';

// The rules' messages, translated like the other field messages in another language.
registerFieldMessages(CASE_FIELD_MESSAGES_KO);

/** The body as the shared schema sends it: the reason trimmed. */
type SentMeasureUpdate = z.output<typeof measureUpdateBody>;

/**
 * Art. 76-3 ④: refusing a measure the reporter asked for needs a reason, and so does carrying out a measure the
 * reporter objected to; either is recorded with the date. Both rules are the shared schema's, judged against the
 * measure on record (`measureUpdateBodyFor`), which the API applies as well.
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
  const consent = measure?.reporter_consent ?? null;
  const recordedReason = measure?.reason ?? '';
  // Refusing: "the reporter asked for it" only where they did; a measure they objected to is said as such.
  const helpKey = granting
    ? 'manager.measures.grantReasonHelp'
    : measure?.requested_by_reporter
      ? 'manager.measures.reasonHelp'
      : consent === false
        ? 'manager.measures.reasonHelpObjected'
        : 'manager.measures.reasonHelpOther';
  const resolver = useMemo(
    () =>
      lazyResolver(() =>
        import('../lib/dialog-resolvers').then((module) =>
          module.measureDecisionResolver({ reporter_consent: consent, reason: recordedReason }),
        ),
      ),
    [consent, recordedReason],
  );
  const form = useForm<MeasureUpdateBody, unknown, SentMeasureUpdate>({
    resolver,
    defaultValues: { reason: '' },
  });
  // The decision is the button the manager pressed; it is part of the body the schema judges.
  useEffect(() => {
    if (target) form.reset({ decision: target.decision, reason: '' });
  }, [target, form]);
  const close = () => {
    form.reset({ reason: '' });
    mutation.reset();
    onClose();
  };
  const submit = form.handleSubmit((body) => {
    if (!target) return;
    mutation.mutate({ measureId: target.measure.id, ...body }, { onSuccess: close });
  });
  return (
    <Dialog open={target !== null} onClose={close} fullWidth maxWidth="sm" aria-labelledby="refuse-title">
      <form noValidate onSubmit={submit}>
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
          <FormTextField
            name="reason"
            control={form.control}
            fullWidth={false}
            id="measure-refuse-reason"
            label={t('manager.measures.reason')}
            helperText={t(helpKey)}
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
            // From the click on: the first check waits for the schema to load.
            disabled={form.formState.isSubmitting || mutation.isPending}
          >
            {t(granting ? 'manager.measures.grant' : 'manager.measures.refuse')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
