import { useTranslation } from 'react-i18next';

/**
 * The one clock of the product. Every date and time on every page (member, manager, invitation) is shown in
 * Korean time, the time the company, the law's deadlines and the mails use, so a reporter, a manager and an
 * invited witness reading the same record see the same figures whatever their device is set to. Where the
 * device's own zone differs at that moment, the text says so with "(KST)".
 */
export const SEOUL = 'Asia/Seoul';
const SEOUL_OFFSET_MINUTES = -540; // Date#getTimezoneOffset's sign: UTC+9 is -540; Korea has no summer time.

const localeOf = (language: string) => (language === 'en' ? 'en-CA' : 'ko-KR');

const DATE: Intl.DateTimeFormatOptions = {
  timeZone: SEOUL,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
};
// `hourCycle: 'h23'`, not `hour12: false`: some ICU builds read the latter as h24 and write midnight as 24:30.
const DATE_TIME: Intl.DateTimeFormatOptions = {
  ...DATE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(language: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${localeOf(language)}|${withTime}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(localeOf(language), withTime ? DATE_TIME : DATE);
    formatters.set(key, found);
  }
  return found;
}

/** Whether this device's clock reads differently from Korea's at `date` (its offset then, not its name). */
export const deviceDiffersFromSeoul = (date: Date): boolean =>
  date.getTimezoneOffset() !== SEOUL_OFFSET_MINUTES;

function format(iso: string | null | undefined, language: string, withTime: boolean): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const text = formatter(language, withTime).format(date);
  return deviceDiffersFromSeoul(date) ? `${text} (KST)` : text;
}

/** "2026. 03. 10." / "2026-03-10", Korean date. */
export const formatDate = (iso: string | null | undefined, language: string): string =>
  format(iso, language, false);

/** "2026. 03. 10. 08:30" / "2026-03-10, 08:30", Korean time. */
export const formatDateTime = (iso: string | null | undefined, language: string): string =>
  format(iso, language, true);

/** The two formatters bound to the page's language. */
export function useDateTime() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return {
    date: (iso: string | null | undefined) => formatDate(iso, language),
    dateTime: (iso: string | null | undefined) => formatDateTime(iso, language),
  };
}
