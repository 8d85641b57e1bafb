import { EVIDENCE_ACCEPT } from '@ansim/shared/contract/evidence-types';
import type { FileView as EvidenceFile } from '@ansim/shared/contract/file';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/messages';
import { formatBytes } from './form/format-bytes';
import { UploadFailure, UploadProgress } from './form/upload-progress';

interface Upload {
  key: string;
  name: string;
  percent: number;
  error?: string;
}

interface Props {
  /** Files uploaded and waiting to go out with the message. */
  files: EvidenceFile[];
  onChange: (files: EvidenceFile[]) => void;
  /** Uploads one file through the wizard's upload path (same limits, sniffing and metadata removal). */
  upload: (file: File, onProgress: (percent: number) => void) => Promise<EvidenceFile>;
  /** Deletes an upload taken out before sending, so it does not linger in the sender's files. */
  discard: (id: string) => Promise<void>;
  /** An anonymous reporter's file whose metadata could not be removed is flagged before sending. */
  isAnonymous?: boolean;
  testId: string;
  disabled?: boolean;
}

/**
 * The attach control of a message composer: the wizard's upload with a progress bar per file, the files
 * ready to send with removal, and the server's own Korean message when it refuses a file.
 */
export function AttachmentPicker({ files, onChange, upload, discard, isAnonymous, testId, disabled }: Props) {
  const { t } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  // Uploads finish at any time: the latest list is read through a ref, not the render's closure.
  const latest = useRef(files);
  latest.current = files;

  const patchUpload = (key: string, patch: Partial<Upload>) =>
    setUploads((current) => current.map((item) => (item.key === key ? { ...item, ...patch } : item)));

  const start = async (file: File) => {
    const key = crypto.randomUUID();
    setUploads((current) => [...current, { key, name: file.name, percent: 0 }]);
    try {
      const stored = await upload(file, (percent) => patchUpload(key, { percent }));
      onChange([...latest.current, stored]);
      setUploads((current) => current.filter((item) => item.key !== key));
    } catch (failure) {
      patchUpload(key, { error: errorText(t, failure) });
    }
  };

  const onPick = (event: React.ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? []);
    event.target.value = '';
    for (const file of picked) void start(file);
  };

  const inFlight = uploads.filter((item) => !item.error);
  const failed = uploads.filter((item) => item.error);

  return (
    <Box>
      {files.length > 0 && (
        <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0, mb: 1 }}>
          {files.map((file) => (
            <Box
              component="li"
              key={file.id}
              data-testid={`${testId}-item`}
              sx={{
                display: 'flex',
                alignItems: 'center',
                gap: 1,
                border: 1,
                borderColor: 'divider',
                borderRadius: 2,
                px: 1.5,
                py: 0.5,
              }}
            >
              <InsertDriveFileOutlinedIcon fontSize="small" color="action" aria-hidden="true" />
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {file.name}{' '}
                  <Typography component="span" variant="caption" color="text.secondary">
                    {formatBytes(file.size)}
                  </Typography>
                </Typography>
                {isAnonymous && file.metadata === 'unremovable' && (
                  <Typography variant="body2" color="error">
                    {t('attachments.unremovable')}
                  </Typography>
                )}
              </Box>
              <IconButton
                size="small"
                onClick={() => {
                  onChange(files.filter((other) => other.id !== file.id));
                  // Best effort: a file left behind is still only the sender's own, cited nowhere.
                  void discard(file.id).catch(() => undefined);
                }}
                aria-label={t('attachments.remove', { name: file.name })}
              >
                <DeleteOutlineIcon fontSize="small" aria-hidden="true" />
              </IconButton>
            </Box>
          ))}
        </Stack>
      )}
      {inFlight.map((item) => (
        <Box key={item.key} sx={{ mb: 1 }}>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {item.name}
          </Typography>
          <UploadProgress
            label={t('evidence.progressLabel', { name: item.name })}
            percent={item.percent}
            caption={t('attachments.uploading')}
            testId={`${testId}-progress`}
          />
        </Box>
      ))}
      <Box aria-live="polite">
        {failed.map((item) => (
          <UploadFailure
            key={item.key}
            name={item.name}
            error={item.error ?? ''}
            dismissLabel={t('attachments.dismiss')}
            onDismiss={() => setUploads((current) => current.filter((other) => other.key !== item.key))}
            testId={`${testId}-error`}
            spacing={1}
          />
        ))}
      </Box>
      <input
        ref={inputRef}
        type="file"
        multiple
        accept={EVIDENCE_ACCEPT}
        hidden
        onChange={onPick}
        data-testid={`${testId}-input`}
        aria-label={t('attachments.add')}
      />
      <Button
        variant="outlined"
        size="small"
        startIcon={<AttachFileIcon aria-hidden="true" />}
        onClick={() => inputRef.current?.click()}
        disabled={disabled}
      >
        {t('attachments.add')}
      </Button>
    </Box>
  );
}

/** A message's files as links that download them, with their names as the case shows them. */
export function MessageFiles({
  files,
  href,
}: {
  files: { id: string; name: string; size: number }[];
  href: (id: string) => string;
}) {
  const { t } = useTranslation();
  if (files.length === 0) return null;
  return (
    <Box component="ul" aria-label={t('attachments.listLabel')} sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }}>
      {files.map((file) => (
        <Box component="li" key={file.id} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
          <AttachFileIcon fontSize="small" color="action" aria-hidden="true" />
          <a href={href(file.id)} download style={{ overflowWrap: 'anywhere', color: 'inherit' }}>
            {file.name}
          </a>
          <Typography component="span" variant="caption" color="text.secondary">
            {formatBytes(file.size)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
