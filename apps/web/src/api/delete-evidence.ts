import { request } from '../lib/request';
import { isRequestError } from '../lib/request-error';
import { draftHeaders } from './draft-headers';
import { fileDownloadUrl } from './evidence-files';

/**
 * DELETE /api/v1/file/{id}/. A file already gone (404) or cited by a submitted report (409 FILE_IN_USE) is
 * still removed from this draft, which is what the reporter asked for; only other failures are raised.
 */
export async function deleteEvidence(id: string): Promise<void> {
  try {
    await request('delete', fileDownloadUrl(id), { headers: draftHeaders() });
  } catch (error) {
    if (isRequestError(error, 'NOT_FOUND') || isRequestError(error, 'FILE_IN_USE')) return;
    throw error;
  }
}

/**
 * The same delete for a file uploaded for a message and taken out before sending; `reportId` names the
 * anonymous case a receipt holder uploaded for. Never with a draft's intake token.
 */
export async function deleteUnsentFile(id: string, options: { reportId?: string } = {}): Promise<void> {
  const query = options.reportId ? `?${new URLSearchParams({ report_id: options.reportId }).toString()}` : '';
  try {
    await request('delete', `${fileDownloadUrl(id)}${query}`);
  } catch (error) {
    if (isRequestError(error, 'NOT_FOUND') || isRequestError(error, 'FILE_IN_USE')) return;
    throw error;
  }
}
