import { request } from '../lib/request';
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
  return uploadFile(file, onProgress, { headers: draftHeaders(), signal });
}

/**
 * The same upload outside the wizard, for a message on a submitted case: never with a draft's intake token.
 * `reportId` names the anonymous case a receipt holder uploads for (the file then belongs to that report).
 */
export function uploadFile(
  file: File,
  onProgress: (percent: number) => void,
  options: { reportId?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<EvidenceFile> {
  const data = new FormData();
  data.append('file', file, file.name);
  const url = options.reportId
    ? `${FILES_PATH}?${new URLSearchParams({ report_id: options.reportId }).toString()}`
    : FILES_PATH;
  return request<EvidenceFile>('post', url, {
    data,
    signal: options.signal,
    headers: options.headers ?? {},
    onUploadProgress: ({ loaded, total }) => {
      const size = total ?? file.size;
      onProgress(size > 0 ? Math.min(100, Math.round((loaded / size) * 100)) : 100);
    },
  });
}
