import i18next from 'i18next';
import copy from './ko.report.json';

/**
 * The Korean copy of the reporter's pages (wizard, my reports, report detail) ships with those lazy pages,
 * not in the entry chunk: the landing page never shows it, and its initial JavaScript stays as small as it
 * was. English lives in en.json, which is fetched only when English is chosen. Importing this module is
 * enough; pages that show this copy import it for that side effect.
 */
function addReporterCopy() {
  i18next.addResourceBundle('ko', 'translation', copy, true, true);
}

// A lazy route can load before i18n has initialised (the router starts loading the first match at once).
if (i18next.isInitialized) addReporterCopy();
else i18next.on('initialized', addReporterCopy);
