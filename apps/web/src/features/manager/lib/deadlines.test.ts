import { describe, expect, it } from 'vitest';
import { deadlineState, formatBytes, formatMonth } from './deadlines';

const NOW = Date.parse('2026-03-10T03:00:00Z');

describe('deadlineState', () => {
  it('is done once the step happened, whatever the clock says', () => {
    expect(
      deadlineState({ dueAt: '2026-03-01T00:00:00Z', doneAt: '2026-02-27T00:00:00Z', isOverdue: false }, NOW),
    ).toEqual({ kind: 'done', at: '2026-02-27T00:00:00Z' });
  });

  it('counts whole days left, 0 on the last day', () => {
    expect(deadlineState({ dueAt: '2026-03-17T03:00:00Z', doneAt: null, isOverdue: false }, NOW)).toEqual({
      kind: 'due',
      days: 7,
    });
    expect(deadlineState({ dueAt: '2026-03-10T20:00:00Z', doneAt: null, isOverdue: false }, NOW)).toEqual({
      kind: 'due',
      days: 0,
    });
  });

  it('counts whole days overdue once the deadline passed', () => {
    expect(deadlineState({ dueAt: '2026-03-07T02:00:00Z', doneAt: null, isOverdue: true }, NOW)).toEqual({
      kind: 'overdue',
      days: 3,
    });
  });

  it("trusts the server's overdue flag over a skewed local clock", () => {
    expect(deadlineState({ dueAt: '2026-03-10T04:00:00Z', doneAt: null, isOverdue: true }, NOW)).toEqual({
      kind: 'overdue',
      days: 0,
    });
  });
});

describe('formatting', () => {
  it('labels chart months compactly', () => {
    expect(formatMonth('2026-11', 'ko')).toBe('26.11');
    expect(formatMonth('2026-01', 'en')).toBe('Jan 26');
  });

  it('sizes files in B, KB and MB', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});
