import type { FileView } from '@ansim/shared/contract/file';
import type {
  AcknowledgeResponse,
  InvitationKind,
  InvitationView,
  SharedEvidence,
} from '@ansim/shared/contract/invitation';
import type { StatementReceipt } from '@ansim/shared/contract/report';
import type { ReportForm } from '@ansim/shared/report-form';
import { env } from '../../../config/env';
import { request } from '../../../lib/request';
import { RequestError, toRequestError } from '../../../lib/request-error';

/** An invitee's own upload, as any uploader sees it. */
/** An invitee's upload is a file like any other; a statement's receipt is the SHA-256 of what was stored. */
export type { FileView as InviteeFile, InvitationKind, InvitationView, SharedEvidence, StatementReceipt };

/** The header every invitee call carries the link's token in: never the URL, so it stays out of logs. */
export const INVITATION_HEADER = 'X-Invitation-Token';

const FILES_PATH = '/api/v1/file/';
const tokenHeaders = (token: string) => ({ [INVITATION_HEADER]: token });

export function fetchInvitation(token: string, signal?: AbortSignal): Promise<InvitationView> {
  // The one call with the token in its path (the API's design); it is answered with no-referrer.
  return request<InvitationView>('get', `/api/v1/invitation/${encodeURIComponent(token)}`, { signal });
}

export function acknowledgeInvitation(token: string): Promise<AcknowledgeResponse> {
  return request('post', '/api/v1/invitation/acknowledge', { headers: tokenHeaders(token) });
}

export function listInviteeFiles(token: string, signal?: AbortSignal): Promise<FileView[]> {
  return request<FileView[]>('get', FILES_PATH, { headers: tokenHeaders(token), signal });
}

export function uploadInviteeFile(
  token: string,
  file: File,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<FileView> {
  const data = new FormData();
  data.append('file', file, file.name);
  return request<FileView>('post', FILES_PATH, {
    data,
    signal,
    headers: tokenHeaders(token),
    onUploadProgress: ({ loaded, total }) => {
      const size = total ?? file.size;
      onProgress(size > 0 ? Math.min(100, Math.round((loaded / size) * 100)) : 100);
    },
  });
}

export function deleteInviteeFile(token: string, id: string): Promise<void> {
  return request('delete', `${FILES_PATH}${encodeURIComponent(id)}/`, { headers: tokenHeaders(token) });
}

export function submitStatement(token: string, form: ReportForm): Promise<StatementReceipt> {
  return request<StatementReceipt>('post', '/api/v1/report/', { data: form, headers: tokenHeaders(token) });
}

const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'text/plain': 'txt',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
};

/**
 * Shared evidence arrives under a generic name (`증거자료-1`, so the file name cannot hint at the reporter);
 * an extension from its type lets the invitee's computer open it.
 */
export function downloadName(name: string, contentType: string | undefined): string {
  if (/\.[A-Za-z0-9]{1,5}$/.test(name)) return name;
  const extension = contentType ? EXTENSIONS[contentType.split(';')[0]!.trim().toLowerCase()] : undefined;
  return extension ? `${name}.${extension}` : name;
}

/**
 * Downloads a file the invitee may see. A plain link cannot carry the token header (and a token in a link
 * would land in history and logs), so the file is fetched here and handed to the browser as a blob.
 */
export async function downloadInviteeFile(
  token: string,
  file: { id: string; name: string; content_type?: string },
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${env.apiBase}${FILES_PATH}${encodeURIComponent(file.id)}/`, {
      headers: tokenHeaders(token),
      credentials: 'include',
    });
  } catch (error) {
    throw toRequestError({ isTransportFailure: true, code: 'ERR_NETWORK', cause: error });
  }
  if (!response.ok) {
    const data: unknown = await response.json().catch(() => undefined);
    throw toRequestError({ isTransportFailure: true, response: { status: response.status, data } });
  }
  const url = URL.createObjectURL(await response.blob());
  try {
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = downloadName(
      file.name,
      file.content_type ?? response.headers.get('content-type') ?? undefined,
    );
    anchor.rel = 'noopener';
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
  } finally {
    // The click has started the save; the object URL is no longer needed after this task.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}

/** What a failed invitee call means for the page: the link is over, not valid, or already used. */
export type LinkProblem = 'expired' | 'invalid' | 'alreadySubmitted' | 'notAcknowledged';

export function linkProblem(error: unknown): LinkProblem | null {
  if (!(error instanceof RequestError)) return null;
  if (error.code === 'INVITATION_EXPIRED' || error.status === 410) return 'expired';
  if (error.code === 'NOT_FOUND' && error.status === 404) return 'invalid';
  if (error.code === 'ALREADY_SUBMITTED') return 'alreadySubmitted';
  if (error.code === 'CONFLICT') return 'notAcknowledged';
  return null;
}
