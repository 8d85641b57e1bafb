import type { ReportStatus } from '@ansim/shared/constants';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { isRequestError } from '../../../lib/request-error';
import { useChangeStatus } from '../api/change-status';
import type { ManagerCase } from '../api/types';
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
  const [missingStatus, setMissingStatus] = useState(false);

  const close = () => {
    if (mutation.isPending) return;
    setStatus('');
    setNoteForReporter('');
    setInternalNote('');
    setMissingStatus(false);
    mutation.reset();
    onClose();
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!status) {
      setMissingStatus(true);
      return;
    }
    mutation.mutate(
      { status, note_for_reporter: noteForReporter.trim(), internal_note: internalNote.trim() },
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
                  label={t(`manager.statusDialog.to.${next}`, { status: statusLabel(t, next) })}
                />
              ))}
            </RadioGroup>
            {missingStatus && (
              <Alert severity="error" sx={{ mt: 1 }}>
                {t('manager.statusDialog.chooseStatus')}
              </Alert>
            )}
          </FormControl>
          <TextField
            id="status-note-reporter"
            label={t('manager.statusDialog.noteForReporter')}
            helperText={t('manager.statusDialog.noteForReporterHelp')}
            value={noteForReporter}
            onChange={(event) => setNoteForReporter(event.target.value)}
            multiline
            minRows={3}
            sx={{ mb: 2 }}
            slotProps={{ htmlInput: { maxLength: NOTE_MAX } }}
          />
          <TextField
            id="status-note-internal"
            label={t('manager.statusDialog.internalNote')}
            helperText={t('manager.statusDialog.internalNoteHelp')}
            value={internalNote}
            onChange={(event) => setInternalNote(event.target.value)}
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
