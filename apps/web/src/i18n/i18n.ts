import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { ja } from './ja';
import { addPersonFormat } from './personName';

export const LANGUAGES = ['en', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

const STORAGE_KEY = 'tablelock.language';

// The messages are bundled, so initialisation is synchronous: the first render is already in
// the user's language. A choice made in the app wins over the browser's languages.
i18next
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en }, ja: { translation: ja } },
    supportedLngs: LANGUAGES,
    load: 'languageOnly',
    fallbackLng: 'en',
    initAsync: false,
    interpolation: { escapeValue: false },
    detection: {
      order: ['localStorage', 'navigator'],
      caches: ['localStorage'],
      lookupLocalStorage: STORAGE_KEY,
    },
  });

addPersonFormat(i18next);

function syncDocumentLanguage(language: string) {
  document.documentElement.lang = language;
}
syncDocumentLanguage(i18next.resolvedLanguage ?? 'en');
i18next.on('languageChanged', syncDocumentLanguage);

/** The app's language: one of LANGUAGES. */
export function currentLanguage(language: string | undefined): Language {
  return language === 'ja' ? 'ja' : 'en';
}

export { i18next };
