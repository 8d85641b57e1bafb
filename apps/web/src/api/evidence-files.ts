import type { FileView } from '@ansim/shared/contract/file';
import { useQuery } from '@tanstack/react-query';
import { queryKey } from '../lib/query-keys';
import { request } from '../lib/request';
import { INTAKE_HEADER, useIntakeToken } from '../stores/intake-token';
import { useReportForm } from '../stores/report-form-store';
import { draftHeaders } from './draft-headers';

/** An uploaded evidence file as the API describes it (docs/requirements.md R-WIZ-8). */
export type { FileView as EvidenceFile };

export const FILES_PATH = '/api/v1/file/';

/**
 * The caller's own files: names for the ids a reloaded draft cites. An anonymous draft lists the files of its
 * intake session, kept apart in the cache by token so a renewed token never shows the old session's files.
 */
export const ownFilesQuery = () => {
  const headers = draftHeaders();
  const intake = headers[INTAKE_HEADER];
  return {
    queryKey: queryKey(FILES_PATH, intake ? { query: { intake } } : {}),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      request<FileView[]>('get', FILES_PATH, { signal, headers }),
  };
};

export const useOwnFiles = () => {
  // Subscribed so the query follows the draft's type and token as they change.
  useReportForm((state) => state.form.report_type);
  useIntakeToken((state) => state.session?.token);
  return useQuery(ownFilesQuery());
};

/** Where a file is downloaded; the server answers with an attachment whatever the file contains. */
export const fileDownloadUrl = (id: string) => `${FILES_PATH}${encodeURIComponent(id)}/`;
