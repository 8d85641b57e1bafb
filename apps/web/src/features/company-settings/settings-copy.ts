import i18next from 'i18next';
import copy from '../../locales/ko.settings.json';

/**
 * The Korean copy of the company settings ships with its pages, like anonymous-copy.ts, so no other page's first
 * load grows. Import for the side effect.
 */
function addSettingsCopy() {
  i18next.addResourceBundle('ko', 'translation', copy, true, true);
}

if (i18next.isInitialized) addSettingsCopy();
else i18next.on('initialized', addSettingsCopy);
