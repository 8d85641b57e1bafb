import i18next from 'i18next';
import copy from '../../locales/ko.form.json';

/**
 * The Korean copy of the shared form parts ships with them, like locales/report-copy.ts with the reporter's
 * pages: the invitee's statement then loads these few lines rather than the reporter's whole catalogue, and
 * the landing page's first load does not grow. Import for the side effect.
 */
function addFormCopy() {
  i18next.addResourceBundle('ko', 'translation', copy, true, true);
}

if (i18next.isInitialized) addFormCopy();
else i18next.on('initialized', addFormCopy);
