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
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldId, useFieldError } from '../../../components/form/draft-fields';
import { formatBytes } from '../../../components/form/format-bytes';
import { errorText } from '../../../lib/messages';
import {
  deleteInviteeFile,
  type InviteeFile,
  listInviteeFiles,
  uploadInviteeFile,
} from '../api/invitation-api';
import { useStatementContext, useStatementDraft } from '../statement-context';
import { statementDraftStore } from '../statement-draft-store';

type EvidenceField = 'defendant_evidences' | 'reference_evidences';

interface Upload {
  key: string;
  name: string;
  percent: number;
  error?: string;
}

/** The files this link uploaded; the key names the kind, never the token. */
const inviteeFilesKey = (kind: string) => ['api', 'v1', 'file', { invitation: kind }] as const;

/**
 * Evidence of the invitee's own, uploaded with the link's token (the files belong to the invitation, not to
 * any account), each with a progress bar; the server's Korean message is shown when it refuses a file.
 */
export function InviteeEvidenceField({ field }: { field: EvidenceField }) {
  const { t } = useTranslation();
  const { kind, token } = useStatementContext();
  const labelId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const ids = useStatementDraft((state) => state.form[field]) ?? [];
  const error = useFieldError(field);
  const files = useQuery({
    queryKey: inviteeFilesKey(kind),
    queryFn: ({ signal }) => listInviteeFiles(token, signal),
  });
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [removing, setRemoving] = useState<string | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);

  // Uploads finish at any time: each one edits the latest list in the store, not the one it started with.
  const editIds = (change: (current: string[]) => string[]) => {
    const store = statementDraftStore(kind).getState();
    store.setField(field, change(store.form[field] ?? []));
  };
  const patchUpload = (key: string, patch: Partial<Upload>) =>
    setUploads((current) => current.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)));

  const start = async (file: File) => {
    const key = crypto.randomUUID();
    setUploads((current) => [...current, { key, name: file.name, percent: 0 }]);
    try {
      const stored = await uploadInviteeFile(token, file, (percent) => patchUpload(key, { percent }));
      queryClient.setQueryData<InviteeFile[]>(inviteeFilesKey(kind), (current) => [
        ...(current ?? []),
        stored,
      ]);
      editIds((current) => [...current, stored.id]);
      setUploads((current) => current.filter((upload) => upload.key !== key));
    } catch (failure) {
      patchUpload(key, { error: errorText(t, failure) });
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
      await deleteInviteeFile(token, id);
      editIds((current) => current.filter((existing) => existing !== id));
      queryClient.setQueryData<InviteeFile[]>(inviteeFilesKey(kind), (current) =>
        current?.filter((file) => file.id !== id),
      );
    } catch (failure) {
      setRemoveError(errorText(t, failure));
    } finally {
      setRemoving(null);
    }
  };

  const byId = new Map((files.data ?? []).map((file) => [file.id, file]));
  const inFlight = uploads.filter((upload) => !upload.error);
  const failed = uploads.filter((upload) => upload.error);

  return (
    <Box id={fieldId(field)} role="group" aria-labelledby={labelId}>
      <Typography id={labelId} sx={{ fontWeight: 600, mb: 0.5 }}>
        {t('invitation.evidence.label')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t(`invitation.evidence.help.${kind}`)}
      </Typography>
      {ids.length > 0 && (
        <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0, mb: 1.5 }}>
          {ids.map((id) => {
            const file = byId.get(id);
            const name = file?.name ?? t('invitation.evidence.unnamed');
            return (
              <Box
                component="li"
                key={id}
                data-testid="invitee-evidence-item"
                sx={{
                  display: 'flex',
                  alignItems: 'center',
                  gap: 1,
                  border: 1,
                  borderColor: 'divider',
                  borderRadius: 2,
                  px: 1.5,
                  py: 1,
                }}
              >
                <InsertDriveFileOutlinedIcon fontSize="small" color="action" aria-hidden="true" />
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                    {name}
                  </Typography>
                  {file && (
                    <Typography variant="caption" color="text.secondary">
                      {formatBytes(file.size)} · {t('invitation.evidence.uploaded')}
                    </Typography>
                  )}
                </Box>
                <IconButton
                  onClick={() => void remove(id)}
                  disabled={removing === id}
                  aria-label={t('invitation.evidence.remove', { name })}
                >
                  <DeleteOutlineIcon aria-hidden="true" />
                </IconButton>
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
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mt: 1 }}>
            <LinearProgress
              variant="determinate"
              value={upload.percent}
              aria-label={t('invitation.evidence.progressLabel', { name: upload.name })}
              data-testid="invitee-evidence-progress"
              sx={{ flex: 1, height: 6, borderRadius: 3 }}
            />
            <Typography variant="caption" color="text.secondary" sx={{ minWidth: 88, textAlign: 'right' }}>
              {t('invitation.evidence.uploading', { percent: upload.percent })}
            </Typography>
          </Box>
        </Box>
      ))}
      <Box aria-live="polite">
        {failed.map((upload) => (
          <Alert
            key={upload.key}
            severity="error"
            sx={{ mb: 1.5, whiteSpace: 'pre-line' }}
            onClose={() => setUploads((current) => current.filter((item) => item.key !== upload.key))}
            slotProps={{ closeButton: { 'aria-label': t('invitation.evidence.dismiss') } }}
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
        data-testid={`invitee-evidence-input-${field}`}
        aria-label={t('invitation.evidence.add')}
      />
      <Button
        variant="outlined"
        size="small"
        startIcon={<AttachFileIcon aria-hidden="true" />}
        onClick={() => inputRef.current?.click()}
      >
        {t('invitation.evidence.add')}
      </Button>
    </Box>
  );
}
