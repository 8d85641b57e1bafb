import DownloadOutlinedIcon from '@mui/icons-material/DownloadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../../components/form/format-bytes';
import { errorText } from '../../../lib/messages';
import { downloadInviteeFile, type InvitationView, type SharedEvidence } from '../api/invitation-api';

/**
 * The acts as the report alleges them, for the accused person to answer: dates, places, descriptions and the
 * evidence the manager chose to share. Never who reported them (the API sends no such field).
 */
export function AllegedActs({ invitation, token }: { invitation: InvitationView; token: string }) {
  const { t } = useTranslation();
  if (invitation.acts.length === 0) {
    return <Typography color="text.secondary">{t('invitation.acts.none')}</Typography>;
  }
  return (
    <Stack component="ol" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="alleged-acts">
      {invitation.acts.map((act, index) => (
        <Paper
          component="li"
          variant="outlined"
          // The acts come as a list without ids; their order is the report's own.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above.
          key={index}
          sx={{ p: { xs: 2, sm: 3 } }}
        >
          <Typography variant="h3" sx={{ fontSize: '1.05rem', fontWeight: 700, mb: 1.5 }}>
            {t('invitation.acts.item', { number: index + 1 })}
          </Typography>
          <Box
            component="dl"
            sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '6rem 1fr' }, columnGap: 2 }}
          >
            <ActRow label={t('invitation.acts.date')} value={act.date} />
            <ActRow label={t('invitation.acts.location')} value={act.location} />
            <ActRow label={t('invitation.acts.description')} value={act.description} />
          </Box>
          {act.evidences.length > 0 && <SharedEvidenceList files={act.evidences} token={token} />}
        </Paper>
      ))}
    </Stack>
  );
}

function ActRow({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary" sx={{ pt: 0.25 }}>
        {label}
      </Typography>
      <Typography
        component="dd"
        sx={{ m: 0, mb: 1, whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}
        color={value ? undefined : 'text.secondary'}
      >
        {value || t('invitation.acts.notGiven')}
      </Typography>
    </>
  );
}

function SharedEvidenceList({ files, token }: { files: SharedEvidence[]; token: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (file: SharedEvidence) => {
    setBusy(file.id);
    setError(null);
    try {
      await downloadInviteeFile(token, file);
    } catch (failure) {
      setError(errorText(t, failure));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Box sx={{ mt: 1.5 }}>
      <Typography variant="body2" sx={{ fontWeight: 600, mb: 1 }}>
        {t('invitation.acts.sharedEvidence')}
      </Typography>
      <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {files.map((file) => (
          <Box component="li" key={file.id}>
            <Button
              variant="outlined"
              size="small"
              startIcon={<DownloadOutlinedIcon aria-hidden="true" />}
              onClick={() => void download(file)}
              disabled={busy === file.id}
            >
              {t('invitation.acts.download', { name: file.name, size: formatBytes(file.size) })}
            </Button>
          </Box>
        ))}
      </Stack>
      {error && (
        <Alert severity="error" sx={{ mt: 1.5 }} role="alert">
          {error}
        </Alert>
      )}
    </Box>
  );
}

/** For a witness: when and where, so they can recall, without the allegations' wording. */
export function ActsInQuestion({ invitation }: { invitation: InvitationView }) {
  const { t } = useTranslation();
  const rows = invitation.acts.filter((act) => act.date || act.location);
  if (rows.length === 0) return null;
  return (
    <Box data-testid="acts-in-question">
      <Box component="ul" sx={{ m: 0, pl: 3 }}>
        {rows.map((act, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the acts have no ids; their order is the report's.
          <Typography component="li" key={index} sx={{ mb: 0.5 }}>
            {[act.date, act.location].filter(Boolean).join(' · ')}
          </Typography>
        ))}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {t('invitation.actsInQuestion.note')}
      </Typography>
    </Box>
  );
}
