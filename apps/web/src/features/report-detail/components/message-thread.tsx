import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteUnsentFile } from '../../../api/delete-evidence';
import type { EvidenceFile } from '../../../api/evidence-files';
import { fileDownloadUrl } from '../../../api/evidence-files';
import { uploadFile } from '../../../api/upload-evidence';
import { AttachmentPicker, MessageFiles } from '../../../components/attachment-picker';
import { TextInput } from '../../../components/text-input';
import { useDateTime } from '../../../lib/datetime';
import { errorText } from '../../../lib/messages';
import { reportQuery } from '../api/get-report';
import { usePostMessage, useReportMessages } from '../api/report-messages';

const MAX_MESSAGE = 5000;

/** The conversation with the company's 담당자 about this case. */
export function MessageThread({ reportId, isAnonymous }: { reportId: string; isAnonymous: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const messages = useReportMessages(reportId);
  const post = usePostMessage(reportId);
  const [body, setBody] = useState('');
  const [attachments, setAttachments] = useState<EvidenceFile[]>([]);
  const [error, setError] = useState<string | null>(null);
  const { dateTime: format } = useDateTime();

  const send = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!body.trim()) {
      setError(t('reportDetail.messages.empty'));
      return;
    }
    setError(null);
    try {
      await post.mutateAsync({ body: body.trim(), files: attachments.map((file) => file.id) });
      setBody('');
      setAttachments([]);
      // The case's file list now holds the sent files too.
      void queryClient.invalidateQueries({ queryKey: reportQuery(reportId).queryKey });
    } catch (failure) {
      setError(errorText(t, failure));
    }
  };

  return (
    <Stack spacing={2}>
      {messages.isPending && <Skeleton variant="rounded" height={64} />}
      {messages.isError && <Alert severity="error">{errorText(t, messages.error)}</Alert>}
      {messages.data?.length === 0 && (
        <Typography color="text.secondary">{t('reportDetail.messages.none')}</Typography>
      )}
      {messages.data && messages.data.length > 0 && (
        <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-live="polite">
          {messages.data.map((message) => {
            const mine = message.author_kind === 'reporter';
            return (
              <Box
                component="li"
                key={message.id}
                sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start' }}
              >
                <Paper
                  variant="outlined"
                  sx={{
                    p: 1.5,
                    maxWidth: { xs: '92%', sm: '75%' },
                    bgcolor: mine ? 'action.hover' : 'background.paper',
                  }}
                >
                  <Typography variant="caption" color="text.secondary" component="p">
                    {mine ? t('reportDetail.messages.me') : t('reportDetail.messages.manager')} ·{' '}
                    {format(message.created_at)}
                  </Typography>
                  <Typography sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                    {message.body}
                  </Typography>
                  <MessageFiles files={message.files ?? []} href={fileDownloadUrl} />
                </Paper>
              </Box>
            );
          })}
        </Stack>
      )}
      <Box component="form" noValidate onSubmit={send}>
        <TextInput
          fullWidth
          multiline
          minRows={3}
          label={t('reportDetail.messages.label')}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          error={Boolean(error)}
          helperText={error ?? t('reportDetail.messages.help')}
          slotProps={{ htmlInput: { maxLength: MAX_MESSAGE } }}
        />
        <Box sx={{ mt: 1.5 }}>
          <AttachmentPicker
            files={attachments}
            onChange={setAttachments}
            upload={(file, onProgress) => uploadFile(file, onProgress, { reportId })}
            discard={(fileId) => deleteUnsentFile(fileId, { reportId })}
            isAnonymous={isAnonymous}
            testId="message-attachment"
          />
        </Box>
        <Button type="submit" variant="contained" sx={{ mt: 1.5 }} disabled={post.isPending}>
          {post.isPending ? t('common.sending') : t('reportDetail.messages.send')}
        </Button>
      </Box>
    </Stack>
  );
}
