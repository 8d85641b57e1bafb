import { afterEach, describe, expect, it } from 'vitest';
import { isReportUnread, markReportSeen, readSeenReports, SEEN_REPORTS_KEY } from './seen-reports';

const report = (updated_at: string) => ({ id: 'r1', created_at: '2026-03-01T00:00:00Z', updated_at });

afterEach(() => localStorage.clear());

describe('unread reports', () => {
  it('counts a report nobody has changed since it was filed as read', () => {
    expect(isReportUnread(report('2026-03-01T00:00:00Z'), {})).toBe(false);
  });

  it('marks a report changed after it was filed, until its page is seen', () => {
    const changed = report('2026-03-02T10:00:00Z');
    expect(isReportUnread(changed, readSeenReports())).toBe(true);
    markReportSeen('r1', changed.updated_at);
    expect(isReportUnread(changed, readSeenReports())).toBe(false);
    expect(isReportUnread(report('2026-03-03T09:00:00Z'), readSeenReports())).toBe(true);
  });

  it('survives a broken stored value', () => {
    localStorage.setItem(SEEN_REPORTS_KEY, '[1,2');
    expect(readSeenReports()).toEqual({});
    localStorage.setItem(SEEN_REPORTS_KEY, JSON.stringify({ r1: 5, r2: '2026-03-01T00:00:00Z' }));
    expect(readSeenReports()).toEqual({ r2: '2026-03-01T00:00:00Z' });
  });
});
