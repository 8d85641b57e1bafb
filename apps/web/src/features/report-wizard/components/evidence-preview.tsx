import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { EvidenceFile } from '../../../api/evidence-files';
import { formatBytes } from '../../../components/form/format-bytes';
import { type Citation, fileKind, genericFileName } from '../evidence-names';
import '../../../locales/anonymous-copy';

export interface PreviewRow {
  citation: Citation;
  position: number;
  file: EvidenceFile | undefined;
  genericName: string;
}

/** The cited files in citation order, each with the name the company will see. */
export function previewRows(citations: Citation[], files: EvidenceFile[] | undefined): PreviewRow[] {
  const byId = new Map((files ?? []).map((file) => [file.id, file]));
  return citations.map((citation, index) => {
    const file = byId.get(citation.id);
    return {
      citation,
      position: index + 1,
      file,
      genericName: file ? genericFileName(index + 1, file) : `증거자료-${index + 1}`,
    };
  });
}

/**
 * Before an anonymous submission: what the company will see of each file (generic name, type, size, whether
 * author and location data were removed). A file whose metadata cannot be removed is flagged with why, and
 * where to go to remove it.
 */
export function EvidencePreview({
  rows,
  onGoTo,
}: {
  rows: PreviewRow[];
  onGoTo: (citation: Citation) => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const blocked = rows.filter((row) => row.file?.metadata === 'unremovable');

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={titleId}
      sx={{ p: { xs: 2, sm: 3 }, mt: 4 }}
      data-testid="evidence-preview"
    >
      <Typography id={titleId} variant="h3" sx={{ fontSize: '1.1rem', fontWeight: 700, mb: 1 }}>
        {t('anonymous.preview.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {rows.length === 0 ? t('anonymous.preview.empty') : t('anonymous.preview.body')}
      </Typography>
      {blocked.length > 0 && (
        <Alert
          severity="error"
          sx={{ mb: 2 }}
          data-testid="evidence-blocked"
          action={
            <Button color="inherit" size="small" onClick={() => onGoTo(blocked[0]!.citation)}>
              {t('anonymous.preview.goToFile')}
            </Button>
          }
        >
          <AlertTitle>{t('anonymous.preview.unremovableTitle')}</AlertTitle>
          {t('anonymous.preview.unremovableWhy', {
            names: blocked.map((row) => row.genericName).join(', '),
          })}
        </Alert>
      )}
      {rows.length > 0 && (
        <Stack component="ol" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {rows.map((row) => (
            <PreviewItem key={row.citation.id} row={row} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}

function PreviewItem({ row }: { row: PreviewRow }) {
  const { t } = useTranslation();
  const { file } = row;
  const metadata = file?.metadata;
  const unremovable = metadata === 'unremovable';
  return (
    <Box
      component="li"
      data-testid="evidence-preview-item"
      sx={{
        border: 1,
        borderColor: unremovable ? 'error.main' : 'divider',
        borderRadius: 2,
        px: 1.5,
        py: 1,
        display: 'flex',
        gap: 1.5,
        alignItems: 'flex-start',
      }}
    >
      <InsertDriveFileOutlinedIcon fontSize="small" color="action" aria-hidden="true" sx={{ mt: 0.25 }} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }} data-testid="evidence-generic-name">
          {row.genericName}
        </Typography>
        {file && (
          <Typography variant="body2" color="text.secondary">
            {t(`anonymous.preview.types.${fileKind(file.content_type)}`)} · {formatBytes(file.size)}
          </Typography>
        )}
        {metadata && (
          <Typography
            variant="body2"
            color={unremovable ? 'error' : 'success.dark'}
            sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mt: 0.25 }}
            data-testid="evidence-metadata"
          >
            {unremovable ? (
              <ErrorOutlineIcon fontSize="inherit" aria-hidden="true" />
            ) : (
              <CheckCircleOutlineIcon fontSize="inherit" aria-hidden="true" />
            )}
            {t(`anonymous.preview.${metadata}`)}
          </Typography>
        )}
        {file && (
          <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {t('anonymous.preview.yours', { name: file.name })}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
