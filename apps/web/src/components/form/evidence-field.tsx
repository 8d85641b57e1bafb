import { EVIDENCE_ACCEPT } from '@ansim/shared/contract/evidence-types';
import type { FileView } from '@ansim/shared/contract/file';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/messages';
import { formatBytes } from './format-bytes';
import { fieldId, useFieldError } from './step-errors';
import { UploadFailure, UploadProgress } from './upload-progress';

interface Upload {
  key: string;
  name: string;
  percent: number;
  fileId?: string;
  error?: string;
}

export interface EvidenceFieldProps {
  /** The list's path in the form, for its error message and for focus. */
  path: string;
  /** The file ids the draft cites. */
  ids: readonly string[];
  /** Changes the draft's list as it is when called: uploads finish at any time, not in the order started. */
  editIds: (change: (current: string[]) => string[]) => void;
  /** The uploader's stored files, which give the cited ids their names and sizes. */
  files: readonly FileView[] | undefined;
  /** Stores one file where this uploader's files go (and records it wherever `files` comes from). */
  upload: (file: File, onProgress: (percent: number) => void) => Promise<FileView>;
  /** Deletes one stored file (and forgets it wherever `files` comes from). */
  remove: (id: string) => Promise<void>;
  /** Where the copy lives: the reporter's catalogue or the invitee's, which the other's pages do not load. */
  copy: 'evidence' | 'invitation.evidence';
  help: string;
  testIdPrefix: 'evidence' | 'invitee-evidence';
  inputTestId: string;
  /**
   * How a finished upload shows: the reporter's file keeps its full bar for this visit, the invitee's says
   * "uploaded" beside its size.
   */
  finishedAs: 'bar' | 'caption';
  /** An anonymous reporter is told about a file whose hidden metadata could not be removed. */
  flagsUnremovable?: boolean;
  /**
   * A named reporter is warned, at upload, that such a file keeps its hidden metadata: the handlers (and
   * whoever the file is shown to) can read its author and place.
   */
  warnsUnremovable?: boolean;
  /** A failure explained elsewhere on the page: the upload is dropped without a message of its own. */
  isExplainedElsewhere?: (failure: unknown) => boolean;
}

/**
 * Evidence files of one part of a form: uploads with a progress bar each, the attached list with removal,
 * and the server's own Korean message when it refuses a file (413 too large, 415 not an allowed type). The
 * reporter's wizard and the invitee's statement differ only in where files go, which the props say.
 */
export function EvidenceField({
  path,
  ids,
  editIds,
  files,
  upload,
  remove,
  copy,
  help,
  testIdPrefix,
  inputTestId,
  finishedAs,
  flagsUnremovable = false,
  warnsUnremovable = false,
  isExplainedElsewhere,
}: EvidenceFieldProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const error = useFieldError(path);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [removing, setRemoving] = useState<string | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);

  const patchUpload = (key: string, patch: Partial<Upload>) =>
    setUploads((current) => current.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  const dropUpload = (key: string) => setUploads((current) => current.filter((item) => item.key !== key));

  const start = async (file: File) => {
    const key = crypto.randomUUID();
    setUploads((current) => [...current, { key, name: file.name, percent: 0 }]);
    try {
      const stored = await upload(file, (percent) => patchUpload(key, { percent }));
      editIds((current) => [...current, stored.id]);
      if (finishedAs === 'bar') patchUpload(key, { percent: 100, fileId: stored.id });
      else dropUpload(key);
    } catch (failure) {
      if (isExplainedElsewhere?.(failure)) dropUpload(key);
      else patchUpload(key, { error: errorText(t, failure) });
    }
  };

  const onPick = (event: React.ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? []);
    // Clearing the input lets the same file be picked again after an error.
    event.target.value = '';
    for (const file of picked) void start(file);
  };

  const removeFile = async (id: string) => {
    setRemoving(id);
    setRemoveError(null);
    try {
      await remove(id);
      editIds((current) => current.filter((existing) => existing !== id));
      setUploads((current) => current.filter((item) => item.fileId !== id));
    } catch (failure) {
      setRemoveError(errorText(t, failure));
    } finally {
      setRemoving(null);
    }
  };

  const byId = new Map((files ?? []).map((file) => [file.id, file]));
  const inFlight = uploads.filter((item) => !item.fileId && !item.error);
  const failed = uploads.filter((item) => item.error);

  return (
    <Box id={fieldId(path)} role="group" aria-labelledby={labelId}>
      <Typography id={labelId} sx={{ fontWeight: 600, mb: 0.5 }}>
        {t(`${copy}.label`)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {help}
      </Typography>
      {ids.length > 0 && (
        <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0, mb: 1.5 }}>
          {ids.map((id) => {
            const file = byId.get(id);
            const finished = uploads.find((candidate) => candidate.fileId === id);
            const name = file?.name ?? finished?.name ?? t(`${copy}.unnamed`);
            return (
              <Box
                component="li"
                key={id}
                data-testid={`${testIdPrefix}-item`}
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
                        {finishedAs === 'caption' && ` · ${t(`${copy}.uploaded`)}`}
                      </Typography>
                    )}
                    {flagsUnremovable && file?.metadata === 'unremovable' && (
                      <Typography
                        variant="body2"
                        color="error"
                        sx={{ mt: 0.5 }}
                        data-testid={`${testIdPrefix}-unremovable`}
                      >
                        {t('anonymous.evidenceUnremovable')}
                      </Typography>
                    )}
                    {warnsUnremovable && file?.metadata === 'unremovable' && (
                      <Typography
                        variant="body2"
                        // Body text colour for contrast; the warning colour marks it as a bar beside it.
                        sx={{
                          mt: 0.5,
                          pl: 1,
                          borderLeft: 3,
                          borderColor: 'warning.main',
                          color: 'text.primary',
                        }}
                        data-testid={`${testIdPrefix}-metadata-kept`}
                      >
                        {t('evidence.metadataKept')}
                      </Typography>
                    )}
                  </Box>
                  <IconButton
                    onClick={() => void removeFile(id)}
                    disabled={removing === id}
                    aria-label={t(`${copy}.remove`, { name })}
                  >
                    <DeleteOutlineIcon aria-hidden="true" />
                  </IconButton>
                </Box>
                {finished && (
                  <UploadProgress
                    label={t(`${copy}.progressLabel`, { name })}
                    percent={100}
                    caption={t(`${copy}.uploaded`)}
                    testId={`${testIdPrefix}-progress-done`}
                  />
                )}
              </Box>
            );
          })}
        </Stack>
      )}
      {inFlight.map((item) => (
        <Box
          key={item.key}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 2, px: 1.5, py: 1, mb: 1.5 }}
        >
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {item.name}
          </Typography>
          <UploadProgress
            label={t(`${copy}.progressLabel`, { name: item.name })}
            percent={item.percent}
            caption={t(`${copy}.uploading`)}
            testId={`${testIdPrefix}-progress`}
          />
        </Box>
      ))}
      <Box aria-live="polite">
        {failed.map((item) => (
          <UploadFailure
            key={item.key}
            name={item.name}
            error={item.error ?? ''}
            dismissLabel={t(`${copy}.dismiss`)}
            onDismiss={() => dropUpload(item.key)}
            testId={`${testIdPrefix}-error`}
            spacing={1.5}
          />
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
        data-testid={inputTestId}
        aria-label={t(`${copy}.add`)}
      />
      <Button
        variant="outlined"
        size="small"
        startIcon={<AttachFileIcon aria-hidden="true" />}
        onClick={() => inputRef.current?.click()}
      >
        {t(`${copy}.add`)}
      </Button>
    </Box>
  );
}
