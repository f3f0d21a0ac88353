import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/i18n';
import { type Caption, captionIn } from './captionIn';
import './captions.css';

/** The table's display name in the user's language, if its comment gives one. */
export function TableCaption({ captions }: { captions: readonly Caption[] }) {
  const { i18n } = useTranslation();
  const { name, description } = captionIn(captions, currentLanguage(i18n.resolvedLanguage));
  if (!name) return null;
  return (
    <span className="table-caption" title={description ?? undefined}>
      {name}
    </span>
  );
}
