import type { CaseFile } from '@ansim/shared/contract/manager';
import DownloadIcon from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../lib/deadlines';
import { fileDownloadUrl } from './evidence-links';

const METADATA_LABELS = {
  removed: 'manager.case.metadataRemoved',
  none: 'manager.case.metadataNone',
  unremovable: 'manager.case.metadataUnremovable',
} as const satisfies Record<CaseFile['metadata'], string>;

/**
 * Every file of the case with what became of its metadata and, for a named case, its SHA-256 (an anonymous
 * case shows none: docs/decisions/0029; the investigation record prints them).
 */
export function EvidenceList({ files }: { files: CaseFile[] }) {
  const { t } = useTranslation();
  if (files.length === 0) return <Typography color="text.secondary">{t('manager.case.noFiles')}</Typography>;
  return (
    <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
      {files.map((file) => (
        <Box
          component="li"
          key={file.id}
          sx={{
            display: 'flex',
            gap: 1,
            alignItems: 'flex-start',
            justifyContent: 'space-between',
            flexWrap: 'wrap',
          }}
        >
          <Box sx={{ minWidth: 0, flex: '1 1 200px' }}>
            <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{file.name}</Typography>
            <Typography variant="body2" color="text.secondary">
              {file.content_type} · {formatBytes(file.size)}
            </Typography>
            <Typography
              variant="body2"
              color={file.metadata === 'unremovable' ? 'error' : 'text.secondary'}
              data-testid="file-metadata"
            >
              {t(METADATA_LABELS[file.metadata])}
            </Typography>
            {file.sha256 && (
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                SHA-256 <code>{file.sha256}</code>
              </Typography>
            )}
          </Box>
          <Button
            size="small"
            variant="outlined"
            component="a"
            href={fileDownloadUrl(file.id)}
            download
            startIcon={<DownloadIcon />}
            className="no-print"
            aria-label={t('manager.case.downloadFile', { name: file.name })}
          >
            {t('manager.case.download')}
          </Button>
        </Box>
      ))}
    </Box>
  );
}
