import i18next from 'i18next';
import copy from '../../locales/ko.landing.json';

/**
 * The landing page's longer Korean copy (how it works, what the company sees, FAQ, outside help) ships with the
 * landing chunk rather than the entry chunk every page loads. English lives in en.json as for the other pages.
 */
function addLandingCopy() {
  i18next.addResourceBundle('ko', 'translation', copy, true, true);
}

if (i18next.isInitialized) addLandingCopy();
else i18next.on('initialized', addLandingCopy);
