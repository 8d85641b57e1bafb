import { describe, expect, it } from 'vitest';
import {
  EMPTY_FILTERS,
  filtersFromSearch,
  filtersToSearch,
  hasActiveFilters,
  nextSort,
  pageFromLink,
  sortDirection,
  toApiParams,
  updateFilters,
} from './filters';

describe('manager list filters', () => {
  it('round-trips every filter through the address', () => {
    const filters = {
      status: 'investigating',
      type: 'anonym',
      q: 'DEMO-2026',
      date_from: '2026-01-01',
      date_to: '2026-03-31',
      overdue: true,
      sort: 'case_number',
      page: 3,
      after: 'WyJjYXNlX251bWJlciJd',
      before: '',
      countExact: true,
    } as const;
    const search = filtersToSearch(filters);
    expect(search.toString()).toBe(
      'status=investigating&type=anonym&q=DEMO-2026&date_from=2026-01-01&date_to=2026-03-31&overdue=true&sort=case_number&page=3&after=WyJjYXNlX251bWJlciJd&count=exact',
    );
    expect(filtersFromSearch(search)).toEqual(filters);
  });

  it('keeps the plain list on the plain address', () => {
    expect(filtersToSearch(EMPTY_FILTERS).toString()).toBe('');
    expect(filtersFromSearch(new URLSearchParams())).toEqual(EMPTY_FILTERS);
  });

  it('drops unknown or malformed values instead of sending them to the API', () => {
    const filters = filtersFromSearch(
      new URLSearchParams(
        'status=deleted&type=defendant&date_from=01/02/2026&sort=drop&page=-4&overdue=yes&after=%27%3B&count=all',
      ),
    );
    expect(filters).toEqual(EMPTY_FILTERS);
  });

  it('always sends sort, page and the page size of 20 to the API', () => {
    expect(toApiParams(EMPTY_FILTERS)).toEqual({ sort: '-created_at', page: '1', page_size: '20' });
    expect(toApiParams({ ...EMPTY_FILTERS, q: '  김  ', overdue: true })).toEqual({
      q: '김',
      overdue: 'true',
      sort: '-created_at',
      page: '1',
      page_size: '20',
    });
  });

  it('goes back to page 1 when a filter changes, but not when paging or counting exactly', () => {
    const onPage4 = { ...EMPTY_FILTERS, page: 4, after: 'abc' };
    expect(updateFilters(onPage4, { status: 'closed' })).toMatchObject({ page: 1, after: '', before: '' });
    expect(updateFilters(onPage4, { page: 5, after: 'def' })).toMatchObject({ page: 5, after: 'def' });
    expect(updateFilters(onPage4, { countExact: true })).toMatchObject({ page: 4, after: 'abc' });
  });

  it('follows the API’s next and previous links to the page and its cursor', () => {
    expect(pageFromLink('/api/v1/manager/report/?sort=-created_at&page=3&page_size=20&after=abc')).toEqual({
      page: 3,
      after: 'abc',
      before: '',
    });
    expect(pageFromLink('/api/v1/manager/report/?page=1&page_size=20')).toEqual({
      page: 1,
      after: '',
      before: '',
    });
    // The first page has one address: no cursor in it, so it is never a different "page 1".
    expect(filtersToSearch({ ...EMPTY_FILTERS, page: 1, before: 'abc' }).toString()).toBe('');
  });

  it('tells whether any filter narrows the list', () => {
    expect(hasActiveFilters(EMPTY_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...EMPTY_FILTERS, sort: 'case_number', page: 2 })).toBe(false);
    expect(hasActiveFilters({ ...EMPTY_FILTERS, q: ' ' })).toBe(false);
    expect(hasActiveFilters({ ...EMPTY_FILTERS, date_to: '2026-01-01' })).toBe(true);
  });

  it('toggles a column between ascending and descending, feedback deadline ascending only', () => {
    expect(nextSort('-created_at', 'case_number')).toBe('case_number');
    expect(nextSort('case_number', 'case_number')).toBe('-case_number');
    expect(nextSort('-case_number', 'case_number')).toBe('case_number');
    expect(nextSort('-created_at', 'created_at')).toBe('created_at');
    expect(nextSort('feedback_due_at', 'feedback_due_at')).toBe('feedback_due_at');
    expect(sortDirection('-created_at', 'created_at')).toBe('desc');
    expect(sortDirection('updated_at', 'updated_at')).toBe('asc');
    expect(sortDirection('updated_at', 'created_at')).toBe(false);
  });
});
