import i18next from 'i18next';
import copy from './ko.anonymous.json';

/**
 * The Korean copy of anonymous reporting (receipt, intake link, anonymity facts) ships with the pages that
 * show it, like report-copy.ts, so the landing page's first load does not grow. Import for the side effect.
 */
function addAnonymousCopy() {
  i18next.addResourceBundle('ko', 'translation', copy, true, true);
}

if (i18next.isInitialized) addAnonymousCopy();
else i18next.on('initialized', addAnonymousCopy);
