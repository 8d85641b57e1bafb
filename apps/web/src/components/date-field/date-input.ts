/**
 * Typed dates for filters, in the page's language rather than the browser's: Chromium draws
 * `<input type="date">` in the browser's locale (mm/dd/yyyy on an English system), whatever the page says.
 * Values are ISO days (`2026-03-10`); the text shows them as the formatter of lib/datetime.ts does.
 */

/** "2026. 03. 10." for Korean, "2026-03-10" for English, from an ISO day; '' for none. */
export function displayDay(iso: string, language: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return '';
  const [, year, month, day] = match;
  return language === 'en' ? `${year}-${month}-${day}` : `${year}. ${month}. ${day}.`;
}

/**
 * The ISO day a person typed, accepting the usual ways of writing one (2026-03-10, 2026.3.10, 2026. 3. 10.,
 * 2026/03/10, 20260310); '' for an empty field, null for text that is not a real day.
 */
export function parseDay(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return '';
  const match =
    /^(\d{4})\s*[-./]\s*(\d{1,2})\s*[-./]\s*(\d{1,2})\s*\.?$/.exec(trimmed) ??
    /^(\d{4})(\d{2})(\d{2})$/.exec(trimmed);
  if (!match) return null;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
