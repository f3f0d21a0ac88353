import type { Language } from './i18n';

/**
 * The Intl locale for dates and numbers: Japanese conventions for Japanese; for English the
 * browser's own English variant (en-GB writes dates day first), else en-US.
 */
export function intlLocale(language: Language): string {
  if (language === 'ja') return 'ja-JP';
  return navigator.languages.find((candidate) => candidate.startsWith('en')) ?? 'en-US';
}
