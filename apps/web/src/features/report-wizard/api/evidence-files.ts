import { useQuery } from '@tanstack/react-query';
import { queryKey } from '../../../lib/query-keys';
import { request } from '../../../lib/request';

/** An uploaded evidence file as the API describes it (DESIGN §4). */
export interface EvidenceFile {
  id: string;
  name: string;
  size: number;
  content_type: string;
  sha256: string;
  created_at: string;
}

export const FILES_PATH = '/api/v1/file/';

/** The caller's own files: names for the ids a reloaded draft cites. */
export const ownFilesQuery = () => ({
  queryKey: queryKey(FILES_PATH),
  queryFn: ({ signal }: { signal: AbortSignal }) => request<EvidenceFile[]>('get', FILES_PATH, { signal }),
});

export const useOwnFiles = () => useQuery(ownFilesQuery());

/** Where a file is downloaded; the server answers with an attachment whatever the file contains. */
export const fileDownloadUrl = (id: string) => `${FILES_PATH}${encodeURIComponent(id)}/`;
