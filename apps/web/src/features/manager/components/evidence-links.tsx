import type { CaseFile } from '@ansim/shared/contract/manager';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { env } from '../../../config/env';
import { formatBytes } from '../lib/deadlines';

export const fileDownloadUrl = (id: string) => `${env.apiBase}/api/v1/file/${encodeURIComponent(id)}/`;

/** Evidence cited by one act or harm, resolved against the case's file list (which holds display names). */
export function EvidenceLinks({ ids, files }: { ids: string[] | null | undefined; files: CaseFile[] }) {
  const { t } = useTranslation();
  if (!ids || ids.length === 0) return null;
  const byId = new Map(files.map((file) => [file.id, file]));
  return (
    <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mb: 1 }} aria-label={t('manager.case.evidence')}>
      {ids.map((id, index) => {
        const file = byId.get(id);
        return (
          <Box component="li" key={id} sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <AttachFileIcon fontSize="small" aria-hidden="true" />
            <Link href={fileDownloadUrl(id)} download>
              {file ? file.name : t('manager.case.evidenceN', { n: index + 1 })}
            </Link>
            {file && (
              <Box component="span" sx={{ color: 'text.secondary', fontSize: '0.85rem' }}>
                ({formatBytes(file.size)})
              </Box>
            )}
          </Box>
        );
      })}
    </Box>
  );
}
