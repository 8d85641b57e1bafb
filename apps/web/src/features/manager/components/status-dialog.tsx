import { CASE_FIELD_MESSAGES_KO } from '@ansim/shared/case-messages.ko';
import { isReopening, needsOutcome } from '@ansim/shared/constants';
import type { ManagerCase, StatusChangeBody, statusChangeBody } from '@ansim/shared/contract/manager';
import { CASE_ACTIONS, CASE_FINDINGS, type CaseAction } from '@ansim/shared/outcomes';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useEffect, useMemo } from 'react';
import { Controller, type DefaultValues, get, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { fieldMessage, registerFieldMessages } from '../../../lib/messages';
import { isRequestError } from '../../../lib/request-error';
import { useChangeStatus } from '../api/change-status';
import { statusLabel } from './labels';

// The rules' messages, translated like the other field messages in another language.
registerFieldMessages(CASE_FIELD_MESSAGES_KO);

const NOTE_MAX = 5000;

/** The body as the shared schema sends it: notes trimmed, defaults filled. */
type SentStatusChange = z.output<typeof statusChangeBody>;

const EMPTY: DefaultValues<StatusChangeBody> = {
  note_for_reporter: '',
  internal_note: '',
  is_feedback: false,
  outcome: { actions: [], summary: '' },
};

/** The fields in the order the dialog shows them: an invalid submit focuses the first that needs a change. */
const FIELD_ORDER = [
  'status',
  'outcome.finding',
  'outcome.actions',
  'outcome.summary',
  'note_for_reporter',
  'internal_note',
] as const;

/** "조치 없음" stands alone; choosing an action clears it. */
function toggleAction(current: readonly CaseAction[], action: CaseAction, checked: boolean): CaseAction[] {
  if (!checked) return current.filter((other) => other !== action);
  if (action === 'none') return ['none'];
  return [...current.filter((other) => other !== 'none'), action];
}

interface Props {
  report: ManagerCase;
  open: boolean;
  onClose: () => void;
}

/**
 * Moves the case one step; only the transitions the server allows from the current status are offered. The
 * fields are checked with the schema the API checks the body with, judged against the status shown
 * (`statusChangeBodyFrom`): the outcome at the end of an investigation, a reason to reopen.
 */
export function StatusDialog({ report, open, onClose }: Props) {
  const { t } = useTranslation();
  const mutation = useChangeStatus(report.id);
  const from = report.status;
  const resolver = useMemo(
    () =>
      lazyResolver(() =>
        import('../lib/dialog-resolvers').then((module) => module.statusChangeResolver(from)),
      ),
    [from],
  );
  const form = useForm<StatusChangeBody, unknown, SentStatusChange>({
    resolver,
    defaultValues: EMPTY,
    // The outcome's fields leave the body with the step that asked for them.
    shouldUnregister: true,
    shouldFocusError: false,
  });
  const { control } = form;
  const [status, noteForReporter] = useWatch({ control, name: ['status', 'note_for_reporter'] });
  const asksOutcome = status !== undefined && needsOutcome(from, status);
  const reopening = status !== undefined && isReopening(from, status);
  // Only a note can tell the reporter the result; an empty one is never feedback.
  const hasNote = Boolean(noteForReporter?.trim());
  useEffect(() => {
    if (!hasNote && form.getValues('is_feedback')) form.setValue('is_feedback', false);
  }, [hasNote, form]);

  const isSending = form.formState.isSubmitting || mutation.isPending;

  const close = () => {
    if (mutation.isPending) return;
    form.reset(EMPTY);
    mutation.reset();
    onClose();
  };

  const submit = form.handleSubmit(
    (body) =>
      mutation.mutate(body, {
        onSuccess: () => {
          showSnackbar(t('manager.statusDialog.done', { status: statusLabel(t, body.status) }), 'success');
          close();
        },
      }),
    (errors) => {
      const first = FIELD_ORDER.find((name) => get(errors, name));
      if (first) form.setFocus(first);
    },
  );

  const error = mutation.error;
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="status-dialog-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="status-dialog-title">{t('manager.statusDialog.title')}</DialogTitle>
        <DialogContent>
          {error && (
            <Alert severity="error" role="alert" sx={{ mb: 2 }}>
              {isRequestError(error, 'INVALID_TRANSITION')
                ? t('manager.statusDialog.conflict')
                : error.message}
            </Alert>
          )}
          <Controller
            name="status"
            control={control}
            render={({ field, fieldState }) => (
              <FormControl error={Boolean(fieldState.error)} sx={{ mb: 2 }}>
                <FormLabel id="status-choice-label">
                  {t('manager.statusDialog.current', { status: statusLabel(t, report.status) })}
                </FormLabel>
                <RadioGroup
                  aria-labelledby="status-choice-label"
                  aria-describedby={fieldState.error ? 'status-choice-error' : undefined}
                  name={field.name}
                  value={field.value ?? ''}
                  onChange={(event) => field.onChange(event.target.value)}
                >
                  {report.allowed_transitions.map((next, index) => (
                    <FormControlLabel
                      key={next}
                      value={next}
                      control={<Radio inputRef={index === 0 ? field.ref : undefined} onBlur={field.onBlur} />}
                      label={
                        isReopening(report.status, next)
                          ? t('manager.statusDialog.reopen', { status: statusLabel(t, next) })
                          : t(`manager.statusDialog.to.${next}`, { status: statusLabel(t, next) })
                      }
                    />
                  ))}
                </RadioGroup>
                {fieldState.error && (
                  <FormHelperText id="status-choice-error">
                    {fieldMessage(t, fieldState.error.message)}
                  </FormHelperText>
                )}
              </FormControl>
            )}
          />
          {asksOutcome && (
            <FormControl component="fieldset" sx={{ mb: 2, display: 'block' }} data-testid="outcome-fields">
              <FormLabel component="legend" sx={{ fontWeight: 700, mb: 0.5 }}>
                {t('manager.outcome.title')}
              </FormLabel>
              <FormHelperText sx={{ mx: 0, mb: 1 }}>{t('manager.outcome.help')}</FormHelperText>
              <Controller
                name="outcome.finding"
                control={control}
                render={({ field, fieldState }) => (
                  <FormControl error={Boolean(fieldState.error)} sx={{ display: 'block', mb: 1 }}>
                    <FormLabel id="outcome-finding-label">{t('manager.outcome.finding')}</FormLabel>
                    <RadioGroup
                      aria-labelledby="outcome-finding-label"
                      aria-describedby={fieldState.error ? 'outcome-finding-error' : undefined}
                      name={field.name}
                      value={field.value ?? ''}
                      onChange={(event) => field.onChange(event.target.value)}
                    >
                      {CASE_FINDINGS.map((option, index) => (
                        <FormControlLabel
                          key={option}
                          value={option}
                          control={
                            <Radio inputRef={index === 0 ? field.ref : undefined} onBlur={field.onBlur} />
                          }
                          label={t(`manager.outcome.findings.${option}`)}
                        />
                      ))}
                    </RadioGroup>
                    {fieldState.error && (
                      <FormHelperText id="outcome-finding-error">
                        {fieldMessage(t, fieldState.error.message)}
                      </FormHelperText>
                    )}
                  </FormControl>
                )}
              />
              <Controller
                name="outcome.actions"
                control={control}
                render={({ field, fieldState }) => (
                  <FormControl
                    error={Boolean(fieldState.error)}
                    component="fieldset"
                    sx={{ display: 'block', mb: 1 }}
                  >
                    <FormLabel component="legend">{t('manager.outcome.actions')}</FormLabel>
                    <FormGroup row>
                      {CASE_ACTIONS.map((action, index) => (
                        <FormControlLabel
                          key={action}
                          control={
                            <Checkbox
                              inputRef={index === 0 ? field.ref : undefined}
                              checked={(field.value ?? []).includes(action)}
                              onChange={(event) =>
                                field.onChange(toggleAction(field.value ?? [], action, event.target.checked))
                              }
                              onBlur={field.onBlur}
                            />
                          }
                          label={t(`manager.outcome.actionLabels.${action}`)}
                        />
                      ))}
                    </FormGroup>
                    {fieldState.error && (
                      <FormHelperText>{fieldMessage(t, fieldState.error.message)}</FormHelperText>
                    )}
                  </FormControl>
                )}
              />
              <FormTextField
                name="outcome.summary"
                control={control}
                id="outcome-summary"
                label={t('manager.outcome.summary')}
                helperText={
                  report.share_outcome_summary
                    ? t('manager.outcome.summaryShared')
                    : t('manager.outcome.summaryPrivate')
                }
                multiline
                minRows={2}
                slotProps={{ htmlInput: { maxLength: NOTE_MAX } }}
              />
            </FormControl>
          )}
          <FormTextField
            name="note_for_reporter"
            control={control}
            id="status-note-reporter"
            label={t('manager.statusDialog.noteForReporter')}
            helperText={t('manager.statusDialog.noteForReporterHelp')}
            multiline
            minRows={3}
            sx={{ mb: 1 }}
            slotProps={{ htmlInput: { maxLength: NOTE_MAX } }}
          />
          <Controller
            name="is_feedback"
            control={control}
            render={({ field }) => (
              <FormControlLabel
                sx={{ mb: 2 }}
                control={
                  <Checkbox
                    inputRef={field.ref}
                    checked={Boolean(field.value)}
                    disabled={!hasNote}
                    onChange={(event) => field.onChange(event.target.checked)}
                    onBlur={field.onBlur}
                  />
                }
                label={t('manager.statusDialog.isFeedback')}
              />
            )}
          />
          <FormTextField
            name="internal_note"
            control={control}
            id="status-note-internal"
            label={
              reopening ? t('manager.statusDialog.reopenReason') : t('manager.statusDialog.internalNote')
            }
            helperText={
              reopening
                ? t('manager.statusDialog.reopenReasonHelp')
                : t('manager.statusDialog.internalNoteHelp')
            }
            required={reopening}
            multiline
            minRows={3}
            slotProps={{ htmlInput: { maxLength: NOTE_MAX } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={mutation.isPending}>
            {t('manager.common.cancel')}
          </Button>
          {/* Disabled from the click on: the first check waits for the schema to load, and a second click then
              would send the change twice. */}
          <Button type="submit" variant="contained" disabled={isSending}>
            {mutation.isPending ? t('common.sending') : t('manager.statusDialog.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
