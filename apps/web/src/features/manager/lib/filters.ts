import { REPORT_STATUSES, REPORTER_TYPES, type ReportStatus } from '@ansim/shared/constants';

export const PAGE_SIZE = 20;

/** Sort keys the list endpoint accepts; `feedback_due_at` only ascending (most urgent first). */
export const SORT_KEYS = [
  '-created_at',
  'created_at',
  '-updated_at',
  'updated_at',
  'case_number',
  '-case_number',
  'feedback_due_at',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortColumn = 'case_number' | 'created_at' | 'updated_at' | 'feedback_due_at';
export const DEFAULT_SORT: SortKey = '-created_at';

export interface ManagerFilters {
  status: ReportStatus | '';
  type: (typeof REPORTER_TYPES)[number] | '';
  q: string;
  date_from: string;
  date_to: string;
  overdue: boolean;
  sort: SortKey;
  page: number;
  /**
   * Where the page starts: the API's cursor after the previous page's last case (`after`) or before the next
   * page's first (`before`), taken from its `next`/`previous` links. Without one, the page is found by its number.
   */
  after: string;
  before: string;
  /** The exact number of matching cases instead of the API's estimate for a long list. */
  countExact: boolean;
}

export const EMPTY_FILTERS: ManagerFilters = {
  status: '',
  type: '',
  q: '',
  date_from: '',
  date_to: '',
  overdue: false,
  sort: DEFAULT_SORT,
  page: 1,
  after: '',
  before: '',
  countExact: false,
};

/** The API's cursors are base64url; anything else in the address is dropped rather than sent. */
const CURSOR = /^[A-Za-z0-9_-]{1,300}$/;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function oneOf<T extends string>(values: readonly T[], value: string | null): T | '' {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : '';
}

/**
 * Filters from the page's address. Anything unknown or malformed falls back to its default, so a hand-edited
 * or stale link still shows a list instead of a 400 from the API.
 */
export function filtersFromSearch(search: URLSearchParams): ManagerFilters {
  const date = (name: string) => {
    const value = search.get(name) ?? '';
    return ISO_DATE.test(value) ? value : '';
  };
  const page = Number.parseInt(search.get('page') ?? '', 10);
  const cursor = (name: string) => {
    const value = search.get(name) ?? '';
    return CURSOR.test(value) ? value : '';
  };
  return {
    status: oneOf(REPORT_STATUSES, search.get('status')),
    type: oneOf(REPORTER_TYPES, search.get('type')),
    q: (search.get('q') ?? '').slice(0, 100),
    date_from: date('date_from'),
    date_to: date('date_to'),
    overdue: search.get('overdue') === 'true',
    sort: oneOf(SORT_KEYS, search.get('sort')) || DEFAULT_SORT,
    page: Number.isFinite(page) && page >= 1 ? page : 1,
    after: cursor('after'),
    before: cursor('before'),
    countExact: search.get('count') === 'exact',
  };
}

/** The page's address for the filters: defaults are left out so the plain list keeps the plain URL. */
export function filtersToSearch(filters: ManagerFilters): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.status) search.set('status', filters.status);
  if (filters.type) search.set('type', filters.type);
  if (filters.q.trim()) search.set('q', filters.q.trim());
  if (filters.date_from) search.set('date_from', filters.date_from);
  if (filters.date_to) search.set('date_to', filters.date_to);
  if (filters.overdue) search.set('overdue', 'true');
  if (filters.sort !== DEFAULT_SORT) search.set('sort', filters.sort);
  if (filters.page > 1) search.set('page', String(filters.page));
  if (filters.page > 1 && filters.after) search.set('after', filters.after);
  else if (filters.page > 1 && filters.before) search.set('before', filters.before);
  if (filters.countExact) search.set('count', 'exact');
  return search;
}

/** Query parameters of GET /api/v1/manager/report/ (and of the CSV export, without paging). */
export function toApiParams(filters: ManagerFilters): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of filtersToSearch(filters)) params[key] = value;
  params.sort = filters.sort;
  params.page = String(filters.page);
  params.page_size = String(PAGE_SIZE);
  return params;
}

/** A changed filter starts again at page 1; paging, or asking for the exact count, keeps the page. */
export function updateFilters(current: ManagerFilters, change: Partial<ManagerFilters>): ManagerFilters {
  const next = { ...current, ...change };
  if (!('page' in change) && !('countExact' in change)) {
    next.page = 1;
    next.after = '';
    next.before = '';
  }
  return next;
}

/** The page a `next` or `previous` link of the API points at, as a change of the filters. */
export function pageFromLink(link: string): Pick<ManagerFilters, 'page' | 'after' | 'before'> {
  const params = new URL(link, 'http://link.invalid').searchParams;
  const page = Number.parseInt(params.get('page') ?? '1', 10) || 1;
  return { page: Math.max(page, 1), after: params.get('after') ?? '', before: params.get('before') ?? '' };
}

export function hasActiveFilters(filters: ManagerFilters): boolean {
  return Boolean(
    filters.status ||
      filters.type ||
      filters.q.trim() ||
      filters.date_from ||
      filters.date_to ||
      filters.overdue,
  );
}

/** The sort a click on a column header asks for: ascending first, then descending where the API has it. */
export function nextSort(current: SortKey, column: SortColumn): SortKey {
  if (column === 'feedback_due_at') return 'feedback_due_at';
  if (current === column) return `-${column}` as SortKey;
  return column as SortKey;
}

export function sortDirection(current: SortKey, column: SortColumn): 'asc' | 'desc' | false {
  if (current === column) return 'asc';
  if (current === `-${column}`) return 'desc';
  return false;
}
