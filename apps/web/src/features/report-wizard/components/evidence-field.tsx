import { EVIDENCE_ACCEPT } from '@ansim/shared/contract/evidence-types';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldId, useFieldError } from '../../../components/form/draft-fields';
import { formatBytes } from '../../../components/form/format-bytes';
import { errorText } from '../../../lib/messages';
import { deleteEvidence } from '../api/delete-evidence';
import { noteIntakeFailure } from '../api/draft-headers';
import { type EvidenceFile, ownFilesQuery, useOwnFiles } from '../api/evidence-files';
import { uploadEvidence } from '../api/upload-evidence';
import { useReportForm } from '../report-form-store';

interface Upload {
  key: string;
  name: string;
  percent: number;
  fileId?: string;
  error?: string;
}

type EvidenceList = 'acts' | 'harms';

/** Reads and writes one entry's `evidences` through the store's latest state: uploads finish at any time. */
function editEvidences(list: EvidenceList, index: number, change: (ids: string[]) => string[]) {
  const state = useReportForm.getState();
  const items = state.form[list] as { evidences: string[] | null }[];
  if (!items[index]) return;
  const next = items.map((item, i) =>
    i === index ? { ...item, evidences: change(item.evidences ?? []) } : item,
  );
  state.setField(list, next as never);
}

/**
 * Evidence files of one act or harm: uploads with a progress bar each, the attached list with removal, and
 * the server's own Korean message when it refuses a file (413 too large, 415 not an allowed type).
 */
export function EvidenceField({ list, index }: { list: EvidenceList; index: number }) {
  const { t } = useTranslation();
  const labelId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const isAnonymous = useReportForm((state) => state.form.report_type === 'anonym');
  const ids = useReportForm(
    (state) => (state.form[list] as { evidences: string[] | null }[])[index]?.evidences ?? null,
  );
  const path = `${list}.${index}.evidences`;
  const error = useFieldError(path);
  const { data: files } = useOwnFiles();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [removing, setRemoving] = useState<string | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);

  const patchUpload = (key: string, patch: Partial<Upload>) =>
    setUploads((current) => current.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)));

  const start = async (file: File) => {
    const key = crypto.randomUUID();
    setUploads((current) => [...current, { key, name: file.name, percent: 0 }]);
    try {
      const stored = await uploadEvidence(file, (percent) => patchUpload(key, { percent }));
      queryClient.setQueryData<EvidenceFile[]>(ownFilesQuery().queryKey, (current) => [
        ...(current ?? []),
        stored,
      ]);
      editEvidences(list, index, (current) => [...current, stored.id]);
      patchUpload(key, { percent: 100, fileId: stored.id });
    } catch (failure) {
      // An expired intake token is explained once by the wizard, which asks for the files again.
      if (noteIntakeFailure(failure)) setUploads((current) => current.filter((upload) => upload.key !== key));
      else patchUpload(key, { error: errorText(t, failure) });
    }
  };

  const onPick = (event: React.ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? []);
    // Clearing the input lets the same file be picked again after an error.
    event.target.value = '';
    for (const file of picked) void start(file);
  };

  const remove = async (id: string) => {
    setRemoving(id);
    setRemoveError(null);
    try {
      await deleteEvidence(id);
      editEvidences(list, index, (current) => current.filter((existing) => existing !== id));
      setUploads((current) => current.filter((upload) => upload.fileId !== id));
      queryClient.setQueryData<EvidenceFile[]>(ownFilesQuery().queryKey, (current) =>
        current?.filter((file) => file.id !== id),
      );
    } catch (failure) {
      setRemoveError(errorText(t, failure));
    } finally {
      setRemoving(null);
    }
  };

  const byId = new Map((files ?? []).map((file) => [file.id, file]));
  const attached = ids ?? [];
  const inFlight = uploads.filter((upload) => !upload.fileId && !upload.error);
  const failed = uploads.filter((upload) => upload.error);

  return (
    <Box id={fieldId(path)} role="group" aria-labelledby={labelId}>
      <Typography id={labelId} sx={{ fontWeight: 600, mb: 0.5 }}>
        {t('evidence.label')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('evidence.help')}
        {isAnonymous && ` ${t('evidence.anonymHint')}`}
      </Typography>
      {attached.length > 0 && (
        <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0, mb: 1.5 }}>
          {attached.map((id) => {
            const file = byId.get(id);
            const upload = uploads.find((candidate) => candidate.fileId === id);
            const name = file?.name ?? upload?.name ?? t('evidence.unnamed');
            return (
              <Box
                component="li"
                key={id}
                data-testid="evidence-item"
                sx={{ border: 1, borderColor: 'divider', borderRadius: 2, px: 1.5, py: 1 }}
              >
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                  <InsertDriveFileOutlinedIcon fontSize="small" color="action" aria-hidden="true" />
                  <Box sx={{ flex: 1, minWidth: 0 }}>
                    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                      {name}
                    </Typography>
                    {file && (
                      <Typography variant="caption" color="text.secondary">
                        {formatBytes(file.size)}
                      </Typography>
                    )}
                    {isAnonymous && file?.metadata === 'unremovable' && (
                      <Typography
                        variant="body2"
                        color="error"
                        sx={{ mt: 0.5 }}
                        data-testid="evidence-unremovable"
                      >
                        {t('anonymous.evidenceUnremovable')}
                      </Typography>
                    )}
                  </Box>
                  <IconButton
                    onClick={() => void remove(id)}
                    disabled={removing === id}
                    aria-label={t('evidence.remove', { name })}
                  >
                    <DeleteOutlineIcon aria-hidden="true" />
                  </IconButton>
                </Box>
                {upload && (
                  <UploadProgress
                    name={name}
                    percent={100}
                    caption={t('evidence.uploaded')}
                    testId="evidence-progress-done"
                  />
                )}
              </Box>
            );
          })}
        </Stack>
      )}
      {inFlight.map((upload) => (
        <Box
          key={upload.key}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 2, px: 1.5, py: 1, mb: 1.5 }}
        >
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {upload.name}
          </Typography>
          <UploadProgress
            name={upload.name}
            percent={upload.percent}
            caption={t('evidence.uploading')}
            testId="evidence-progress"
          />
        </Box>
      ))}
      <Box aria-live="polite">
        {failed.map((upload) => (
          <Alert
            key={upload.key}
            severity="error"
            sx={{ mb: 1.5, whiteSpace: 'pre-line' }}
            data-testid="evidence-error"
            onClose={() => setUploads((current) => current.filter((item) => item.key !== upload.key))}
            slotProps={{ closeButton: { 'aria-label': t('evidence.dismiss') } }}
          >
            <strong>{upload.name}</strong>
            {`\n${upload.error}`}
          </Alert>
        ))}
        {removeError && (
          <Alert severity="error" sx={{ mb: 1.5 }} onClose={() => setRemoveError(null)}>
            {removeError}
          </Alert>
        )}
      </Box>
      {error && (
        <Typography variant="body2" color="error" sx={{ mb: 1 }}>
          {error}
        </Typography>
      )}
      <input
        ref={inputRef}
        type="file"
        multiple
        // The server judges the bytes; this only narrows the picker.
        accept={EVIDENCE_ACCEPT}
        hidden
        onChange={onPick}
        data-testid={`evidence-input-${list}-${index}`}
        aria-label={t('evidence.add')}
      />
      <Button
        variant="outlined"
        size="small"
        startIcon={<AttachFileIcon aria-hidden="true" />}
        onClick={() => inputRef.current?.click()}
      >
        {t('evidence.add')}
      </Button>
    </Box>
  );
}

export function UploadProgress({
  name,
  percent,
  caption,
  testId,
}: {
  name: string;
  percent: number;
  caption: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mt: 1 }}>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label={t('evidence.progressLabel', { name })}
        data-testid={testId}
        sx={{ flex: 1, height: 6, borderRadius: 3 }}
      />
      <Typography variant="caption" color="text.secondary" sx={{ minWidth: 88, textAlign: 'right' }}>
        {caption} {percent}%
      </Typography>
    </Box>
  );
}
