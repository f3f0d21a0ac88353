import { useTranslation } from 'react-i18next';
import { useFormatters } from '../i18n/useFormatters';
import { effectiveAtErrorText } from './effectiveAtErrorText';

/** A refused time for a change, in words, where the time was chosen; nothing without one. */
export function EffectiveAtError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (error === null) return null;
  return (
    <p className="banner banner-error" role="alert" data-testid="schedule-error">
      {effectiveAtErrorText(error, t, format.dateTime)}
    </p>
  );
}
