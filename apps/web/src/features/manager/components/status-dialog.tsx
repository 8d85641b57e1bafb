import { isReopening, needsOutcome, type ReportStatus } from '@ansim/shared/constants';
import type { ManagerCase } from '@ansim/shared/contract/manager';
import { CASE_ACTIONS, CASE_FINDINGS, type CaseAction, type CaseFinding } from '@ansim/shared/outcomes';
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
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { TextInput } from '../../../components/text-input';
import { isRequestError } from '../../../lib/request-error';
import { useChangeStatus } from '../api/change-status';
import { statusLabel } from './labels';

const NOTE_MAX = 5000;

interface Props {
  report: ManagerCase;
  open: boolean;
  onClose: () => void;
}

/** Moves the case one step; only the transitions the server allows from the current status are offered. */
export function StatusDialog({ report, open, onClose }: Props) {
  const { t } = useTranslation();
  const mutation = useChangeStatus(report.id);
  const [status, setStatus] = useState<ReportStatus | ''>('');
  const [noteForReporter, setNoteForReporter] = useState('');
  const [internalNote, setInternalNote] = useState('');
  const [isFeedback, setIsFeedback] = useState(false);
  const [missingStatus, setMissingStatus] = useState(false);
  const [finding, setFinding] = useState<CaseFinding | ''>('');
  const [actions, setActions] = useState<CaseAction[]>([]);
  const [summary, setSummary] = useState('');
  const [missing, setMissing] = useState<{ finding?: boolean; actions?: boolean; reason?: boolean }>({});
  const asksOutcome = status !== '' && needsOutcome(report.status, status);
  const reopening = status !== '' && isReopening(report.status, status);

  const toggleAction = (action: CaseAction, checked: boolean) => {
    setMissing((current) => ({ ...current, actions: false }));
    setActions((current) => {
      if (!checked) return current.filter((other) => other !== action);
      // "조치 없음" stands alone; choosing an action clears it.
      if (action === 'none') return ['none'];
      return [...current.filter((other) => other !== 'none'), action];
    });
  };

  const close = () => {
    if (mutation.isPending) return;
    setStatus('');
    setNoteForReporter('');
    setInternalNote('');
    setIsFeedback(false);
    setMissingStatus(false);
    setFinding('');
    setActions([]);
    setSummary('');
    setMissing({});
    mutation.reset();
    onClose();
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!status) {
      setMissingStatus(true);
      return;
    }
    const gaps = {
      finding: asksOutcome && !finding,
      actions: asksOutcome && actions.length === 0,
      reason: reopening && !internalNote.trim(),
    };
    if (gaps.finding || gaps.actions || gaps.reason) {
      setMissing(gaps);
      return;
    }
    mutation.mutate(
      {
        status,
        note_for_reporter: noteForReporter.trim(),
        internal_note: internalNote.trim(),
        // Only a note can tell the reporter the result; an empty one is never feedback.
        is_feedback: isFeedback && noteForReporter.trim().length > 0,
        ...(asksOutcome && finding ? { outcome: { finding, actions, summary: summary.trim() } } : {}),
      },
      {
        onSuccess: () => {
          showSnackbar(t('manager.statusDialog.done', { status: statusLabel(t, status) }), 'success');
          close();
        },
      },
    );
  };

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
          <FormControl error={missingStatus} sx={{ mb: 2 }}>
            <FormLabel id="status-choice-label">
              {t('manager.statusDialog.current', { status: statusLabel(t, report.status) })}
            </FormLabel>
            <RadioGroup
              aria-labelledby="status-choice-label"
              value={status}
              onChange={(event) => {
                setStatus(event.target.value as ReportStatus);
                setMissingStatus(false);
              }}
            >
              {report.allowed_transitions.map((next) => (
                <FormControlLabel
                  key={next}
                  value={next}
                  control={<Radio />}
                  label={
                    isReopening(report.status, next)
                      ? t('manager.statusDialog.reopen', { status: statusLabel(t, next) })
                      : t(`manager.statusDialog.to.${next}`, { status: statusLabel(t, next) })
                  }
                />
              ))}
            </RadioGroup>
            {missingStatus && (
              <Alert severity="error" sx={{ mt: 1 }}>
                {t('manager.statusDialog.chooseStatus')}
              </Alert>
            )}
          </FormControl>
          {asksOutcome && (
            <FormControl component="fieldset" sx={{ mb: 2, display: 'block' }} data-testid="outcome-fields">
              <FormLabel component="legend" sx={{ fontWeight: 700, mb: 0.5 }}>
                {t('manager.outcome.title')}
              </FormLabel>
              <FormHelperText sx={{ mx: 0, mb: 1 }}>{t('manager.outcome.help')}</FormHelperText>
              <FormControl error={missing.finding} sx={{ display: 'block', mb: 1 }}>
                <FormLabel id="outcome-finding-label">{t('manager.outcome.finding')}</FormLabel>
                <RadioGroup
                  aria-labelledby="outcome-finding-label"
                  value={finding}
                  onChange={(event) => {
                    setFinding(event.target.value as CaseFinding);
                    setMissing((current) => ({ ...current, finding: false }));
                  }}
                >
                  {CASE_FINDINGS.map((option) => (
                    <FormControlLabel
                      key={option}
                      value={option}
                      control={<Radio />}
                      label={t(`manager.outcome.findings.${option}`)}
                    />
                  ))}
                </RadioGroup>
                {missing.finding && <FormHelperText>{t('manager.outcome.findingRequired')}</FormHelperText>}
              </FormControl>
              <FormControl error={missing.actions} component="fieldset" sx={{ display: 'block', mb: 1 }}>
                <FormLabel component="legend">{t('manager.outcome.actions')}</FormLabel>
                <FormGroup row>
                  {CASE_ACTIONS.map((action) => (
                    <FormControlLabel
                      key={action}
                      control={
                        <Checkbox
                          checked={actions.includes(action)}
                          onChange={(event) => toggleAction(action, event.target.checked)}
                        />
                      }
                      label={t(`manager.outcome.actionLabels.${action}`)}
                    />
                  ))}
                </FormGroup>
                {missing.actions && <FormHelperText>{t('manager.outcome.actionsRequired')}</FormHelperText>}
              </FormControl>
              <TextInput
                id="outcome-summary"
                label={t('manager.outcome.summary')}
                helperText={
                  report.share_outcome_summary
                    ? t('manager.outcome.summaryShared')
                    : t('manager.outcome.summaryPrivate')
                }
                value={summary}
                onChange={(event) => setSummary(event.target.value)}
                multiline
                minRows={2}
                slotProps={{ htmlInput: { maxLength: NOTE_MAX } }}
              />
            </FormControl>
          )}
          <TextInput
            id="status-note-reporter"
            label={t('manager.statusDialog.noteForReporter')}
            helperText={t('manager.statusDialog.noteForReporterHelp')}
            value={noteForReporter}
            onChange={(event) => setNoteForReporter(event.target.value)}
            multiline
            minRows={3}
            sx={{ mb: 1 }}
            slotProps={{ htmlInput: { maxLength: NOTE_MAX } }}
          />
          <FormControlLabel
            sx={{ mb: 2 }}
            control={
              <Checkbox
                checked={isFeedback}
                disabled={!noteForReporter.trim()}
                onChange={(event) => setIsFeedback(event.target.checked)}
              />
            }
            label={t('manager.statusDialog.isFeedback')}
          />
          <TextInput
            id="status-note-internal"
            label={
              reopening ? t('manager.statusDialog.reopenReason') : t('manager.statusDialog.internalNote')
            }
            helperText={
              missing.reason
                ? t('manager.statusDialog.reopenReasonRequired')
                : reopening
                  ? t('manager.statusDialog.reopenReasonHelp')
                  : t('manager.statusDialog.internalNoteHelp')
            }
            error={missing.reason}
            required={reopening}
            value={internalNote}
            onChange={(event) => {
              setInternalNote(event.target.value);
              setMissing((current) => ({ ...current, reason: false }));
            }}
            multiline
            minRows={3}
            slotProps={{ htmlInput: { maxLength: NOTE_MAX } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={mutation.isPending}>
            {t('manager.common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={mutation.isPending}>
            {mutation.isPending ? t('common.sending') : t('manager.statusDialog.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
