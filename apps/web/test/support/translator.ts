import { createInstance, type TFunction } from 'i18next';
import { en } from '../../src/i18n/en';
import { ja } from '../../src/i18n/ja';
import { addPersonFormat } from '../../src/i18n/personName';

/** The app's messages in `language`, with i18next's plural rules, outside any React tree. */
export async function translator(language: 'en' | 'ja'): Promise<TFunction> {
  const i18n = createInstance();
  await i18n.init({
    lng: language,
    resources: { en: { translation: en }, ja: { translation: ja } },
    interpolation: { escapeValue: false },
  });
  addPersonFormat(i18n);
  return i18n.t;
}
