import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import ko from '../locales/ko.json';

export const LANGUAGES = ['ko', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_KEY = 'ansim.language';

function storedLanguage(): Language {
  try {
    return localStorage.getItem(LANGUAGE_KEY) === 'en' ? 'en' : 'ko';
  } catch {
    return 'ko';
  }
}

/** Korean ships with the app; other catalogues are fetched when chosen, keeping the landing page light. */
async function ensureLanguage(language: Language): Promise<void> {
  if (language === 'ko' || i18next.hasResourceBundle(language, 'translation')) return;
  const { default: resources } = await import('../locales/en.json');
  i18next.addResourceBundle(language, 'translation', resources, true, true);
}

/** Korean is the product's language (docs/requirements.md R-WEB-12); English is the complete second language. */
export async function initI18n(): Promise<typeof i18next> {
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({
      resources: { ko: { translation: ko } },
      lng: 'ko',
      fallbackLng: 'ko',
      supportedLngs: [...LANGUAGES],
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    const syncHtmlLang = (lng: string) => {
      if (typeof document !== 'undefined') document.documentElement.lang = lng;
    };
    i18next.on('languageChanged', syncHtmlLang);
    syncHtmlLang('ko');
    const preferred = storedLanguage();
    if (preferred !== 'ko') await changeLanguage(preferred);
  }
  return i18next;
}

export async function changeLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // Not persisted; still switched for this visit.
  }
  await ensureLanguage(language);
  await i18next.changeLanguage(language);
}
