import { describe, expect, it } from 'vitest';
import { displayDay, parseDay } from './date-input';

describe('typed dates', () => {
  it('shows a day in the page language, never mm/dd/yyyy', () => {
    expect(displayDay('2026-03-10', 'ko')).toBe('2026. 03. 10.');
    expect(displayDay('2026-03-10', 'en')).toBe('2026-03-10');
    expect(displayDay('', 'ko')).toBe('');
  });

  it('reads the usual ways of writing a day', () => {
    for (const text of ['2026-03-10', '2026.3.10', '2026. 03. 10.', '2026/3/10', '20260310', ' 2026-3-10 '])
      expect(parseDay(text)).toBe('2026-03-10');
    expect(parseDay('')).toBe('');
  });

  it('refuses what is not a real day', () => {
    for (const text of ['2026-02-30', '2026-13-01', '03/10/2026', '10.3.2026', 'yesterday', '2026-3'])
      expect(parseDay(text)).toBeNull();
  });
});
