import i18next from 'i18next';
import copy from '../../locales/ko.policies.json';

/** The Korean policies ship with their own pages, not the entry chunk (see landing-copy.ts). */
function addPolicyCopy() {
  i18next.addResourceBundle('ko', 'translation', copy, true, true);
}

if (i18next.isInitialized) addPolicyCopy();
else i18next.on('initialized', addPolicyCopy);
