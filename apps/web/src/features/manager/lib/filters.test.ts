import { describe, expect, it } from 'vitest';
import {
  EMPTY_FILTERS,
  filtersFromSearch,
  filtersToSearch,
  hasActiveFilters,
  nextSort,
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
    } as const;
    const search = filtersToSearch(filters);
    expect(search.toString()).toBe(
      'status=investigating&type=anonym&q=DEMO-2026&date_from=2026-01-01&date_to=2026-03-31&overdue=true&sort=case_number&page=3',
    );
    expect(filtersFromSearch(search)).toEqual(filters);
  });

  it('keeps the plain list on the plain address', () => {
    expect(filtersToSearch(EMPTY_FILTERS).toString()).toBe('');
    expect(filtersFromSearch(new URLSearchParams())).toEqual(EMPTY_FILTERS);
  });

  it('drops unknown or malformed values instead of sending them to the API', () => {
    const filters = filtersFromSearch(
      new URLSearchParams('status=deleted&type=defendant&date_from=01/02/2026&sort=drop&page=-4&overdue=yes'),
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

  it('goes back to page 1 when a filter changes, but not when paging', () => {
    const onPage4 = { ...EMPTY_FILTERS, page: 4 };
    expect(updateFilters(onPage4, { status: 'closed' }).page).toBe(1);
    expect(updateFilters(onPage4, { page: 5 }).page).toBe(5);
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
