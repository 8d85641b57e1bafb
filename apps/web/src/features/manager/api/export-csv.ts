import { env } from '../../../config/env';
import { type ManagerFilters, toApiParams } from '../lib/filters';

export const EXPORT_CSV_PATH = '/api/v1/manager/report/export.csv';

/**
 * A plain link, not a fetch: the browser streams the file to disk with the server's file name, and the
 * session cookie goes along as with any same-origin GET. Paging (and its cursor and count) is left out — the
 * export is every match.
 */
export function exportCsvUrl(filters: ManagerFilters): string {
  const {
    page: _page,
    page_size: _size,
    after: _after,
    before: _before,
    count: _count,
    ...params
  } = toApiParams(filters);
  const query = new URLSearchParams(params).toString();
  return `${env.apiBase}${EXPORT_CSV_PATH}${query ? `?${query}` : ''}`;
}
