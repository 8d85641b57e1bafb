import { request } from '../../../lib/request';
import { draftHeaders } from './draft-headers';
import { type EvidenceFile, FILES_PATH } from './evidence-files';

/**
 * POST /api/v1/file/ as multipart with the one field `file`. The server sniffs the content and answers 413
 * or 415 with a Korean message, which the caller shows as it is.
 */
export function uploadEvidence(
  file: File,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<EvidenceFile> {
  const data = new FormData();
  data.append('file', file, file.name);
  return request<EvidenceFile>('post', FILES_PATH, {
    data,
    signal,
    headers: draftHeaders(),
    onUploadProgress: ({ loaded, total }) => {
      const size = total ?? file.size;
      onProgress(size > 0 ? Math.min(100, Math.round((loaded / size) * 100)) : 100);
    },
  });
}
