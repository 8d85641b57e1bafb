import type { ManagerCase } from '@ansim/shared/contract/manager';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteUnsentFile } from '../../../api/delete-evidence';
import type { EvidenceFile } from '../../../api/evidence-files';
import { fileDownloadUrl } from '../../../api/evidence-files';
import { uploadFile } from '../../../api/upload-evidence';
import { AttachmentPicker, MessageFiles } from '../../../components/attachment-picker';
import { TextInput } from '../../../components/text-input';
import { formatDateTime } from '../../../lib/datetime';
import { usePostManagerMessage } from '../api/post-message';

const MESSAGE_MAX = 5000;

/** The thread with the reporter. In an anonymous case the reporter is only ever "익명 신고인". */
export function MessagesPanel({ report }: { report: ManagerCase }) {
  const { t, i18n } = useTranslation();
  const mutation = usePostManagerMessage(report.id);
  const [body, setBody] = useState('');
  const [attachments, setAttachments] = useState<EvidenceFile[]>([]);
  const [empty, setEmpty] = useState(false);
  const [isFeedback, setIsFeedback] = useState(false);

  const authorName = (message: ManagerCase['messages'][number]) =>
    message.author_kind === 'reporter'
      ? report.reporter
        ? message.author_name
        : t('manager.case.anonymousReporter')
      : message.author_name;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!body.trim()) {
      setEmpty(true);
      return;
    }
    mutation.mutate(
      { body: body.trim(), files: attachments.map((file) => file.id), is_feedback: isFeedback },
      {
        onSuccess: () => {
          setBody('');
          setAttachments([]);
          setIsFeedback(false);
        },
      },
    );
  };

  return (
    <Box>
      {report.messages.length === 0 ? (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('manager.messages.empty')}
        </Typography>
      ) : (
        <Box
          component="ol"
          aria-label={t('manager.messages.thread')}
          sx={{ listStyle: 'none', p: 0, m: 0, mb: 2, display: 'grid', gap: 1 }}
          data-testid="messages"
        >
          {report.messages.map((message) => {
            const mine = message.author_kind === 'manager';
            return (
              <Box
                component="li"
                key={message.id}
                sx={{
                  justifySelf: mine ? 'end' : 'start',
                  maxWidth: '90%',
                  p: 1.5,
                  borderRadius: 2,
                  border: 1,
                  borderColor: mine ? 'primary.main' : 'divider',
                  bgcolor: mine ? 'action.selected' : 'background.paper',
                }}
              >
                <Typography variant="body2" sx={{ fontWeight: 700 }}>
                  {authorName(message)}
                  <Box component="span" sx={{ fontWeight: 400, color: 'text.secondary', ml: 1 }}>
                    {formatDateTime(message.created_at, i18n.language)}
                  </Box>
                </Typography>
                <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {message.body}
                </Typography>
                <MessageFiles files={message.files ?? []} href={fileDownloadUrl} />
              </Box>
            );
          })}
        </Box>
      )}
      <Box component="form" onSubmit={submit} noValidate className="no-print">
        {mutation.error && (
          <Alert severity="error" role="alert" sx={{ mb: 1 }}>
            {mutation.error.message}
          </Alert>
        )}
        <TextInput
          id="manager-message"
          label={t('manager.messages.composer')}
          helperText={empty ? t('manager.messages.required') : t('manager.messages.composerHelp')}
          error={empty}
          value={body}
          onChange={(event) => {
            setBody(event.target.value);
            setEmpty(false);
          }}
          multiline
          minRows={2}
          slotProps={{ htmlInput: { maxLength: MESSAGE_MAX } }}
        />
        <Box sx={{ mt: 1 }}>
          <AttachmentPicker
            files={attachments}
            onChange={setAttachments}
            upload={(file, onProgress) => uploadFile(file, onProgress)}
            discard={(fileId) => deleteUnsentFile(fileId)}
            testId="manager-message-attachment"
          />
        </Box>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mt: 1 }}>
          <FormControlLabel
            control={
              <Checkbox checked={isFeedback} onChange={(event) => setIsFeedback(event.target.checked)} />
            }
            label={t('manager.messages.isFeedback')}
          />
          <Button type="submit" variant="contained" endIcon={<SendIcon />} disabled={mutation.isPending}>
            {mutation.isPending ? t('common.sending') : t('manager.messages.send')}
          </Button>
        </Box>
      </Box>
    </Box>
  );
}
