import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deviceDiffersFromSeoul, formatDate, formatDateTime } from './datetime';

// 23:30 UTC on the 9th is 08:30 on the 10th in Seoul.
const LATE_UTC = '2026-03-09T23:30:00Z';

afterEach(() => vi.restoreAllMocks());

/** Pretends the device runs on a clock `offset` minutes behind UTC (Date#getTimezoneOffset's sign). */
const deviceOffset = (offset: number) =>
  vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(offset);

describe('the one clock', () => {
  it('shows Korean time on a device in UTC, labelled (KST)', () => {
    deviceOffset(0);
    expect(formatDate(LATE_UTC, 'en')).toBe('2026-03-10 (KST)');
    expect(formatDate(LATE_UTC, 'ko')).toBe('2026. 03. 10. (KST)');
    expect(formatDateTime(LATE_UTC, 'ko')).toBe('2026. 03. 10. 08:30 (KST)');
    expect(formatDateTime(LATE_UTC, 'en')).toBe('2026-03-10, 08:30 (KST)');
  });

  it('shows the same figures without the label on a device already on Korean time', () => {
    deviceOffset(-540);
    expect(formatDate(LATE_UTC, 'ko')).toBe('2026. 03. 10.');
    expect(formatDateTime(LATE_UTC, 'ko')).toBe('2026. 03. 10. 08:30');
  });

  it('writes half past midnight as 00:30, never 24:30', () => {
    deviceOffset(-540);
    expect(formatDateTime('2026-11-23T15:30:00Z', 'ko')).toBe('2026. 11. 24. 00:30');
    expect(formatDateTime('2026-11-23T15:30:00Z', 'en')).toBe('2026-11-24, 00:30');
  });

  it('labels by the offset at that moment, not the zone name', () => {
    deviceOffset(-540);
    expect(deviceDiffersFromSeoul(new Date(LATE_UTC))).toBe(false);
    deviceOffset(-600);
    expect(deviceDiffersFromSeoul(new Date(LATE_UTC))).toBe(true);
  });

  it('shows nothing for a missing or broken value', () => {
    expect(formatDate(null, 'ko')).toBe('');
    expect(formatDateTime(undefined, 'en')).toBe('');
    expect(formatDateTime('not a date', 'ko')).toBe('');
  });
});

describe('every page uses the one clock', () => {
  const SRC = join(import.meta.dirname, '..');
  const sources = (readdirSync(SRC, { recursive: true }) as string[]).filter(
    (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && file !== join('lib', 'datetime.ts'),
  );

  it('formats no instant in the device zone', () => {
    const offenders: string[] = [];
    for (const file of sources) {
      const text = readFileSync(join(SRC, file), 'utf8');
      if (/\.toLocale(Date|Time)String\(|new Date\([^)]*\)\.toLocaleString\(/.test(text))
        offenders.push(file);
      // An Intl date formatter without a zone writes the device's clock, whatever the page shows beside it.
      for (const match of text.matchAll(/new Intl\.DateTimeFormat\(/g))
        if (!text.slice(match.index, match.index + 240).includes('timeZone')) offenders.push(file);
    }
    expect(sources.length).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });
});
