import { useTranslation } from 'react-i18next';
import { currentLanguage, LANGUAGES } from './i18n';

const LANGUAGE_NAMES = { en: 'English', ja: '日本語' } as const;

/** Each language is named in itself, so a user can find theirs whatever is shown now. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const language = currentLanguage(i18n.resolvedLanguage);
  return (
    <fieldset className="language-switch" aria-label={t('layout.language')}>
      {LANGUAGES.map((candidate) => (
        <button
          key={candidate}
          type="button"
          lang={candidate}
          aria-pressed={candidate === language}
          onClick={() => i18n.changeLanguage(candidate)}
        >
          {LANGUAGE_NAMES[candidate]}
        </button>
      ))}
    </fieldset>
  );
}
