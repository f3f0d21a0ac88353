import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/useFormatters';
import { userTimeZone } from './asOfTime';

interface AsOfBannerProps {
  table: string;
  /** The time shown (ISO); null: now, and no banner. */
  asOf: string | null;
  onBackToToday: () => void;
}

/** The grid shows another time than now: which, that it is read-only, and the way back. */
export function AsOfBanner({ table, asOf, onBackToToday }: AsOfBannerProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (asOf === null) return null;
  const time = `${format.dateTime(asOf)} (${userTimeZone()})`;
  const future = new Date(asOf).getTime() > Date.now();
  return (
    <div className="banner banner-info as-of-banner" data-testid="as-of-banner">
      <div>
        <strong role="status">
          {future ? t('asOf.futureTitle', { table, time }) : t('asOf.pastTitle', { table, time })}
        </strong>
        <p>{future ? t('asOf.futureBody') : t('asOf.pastBody')}</p>
      </div>
      <div className="banner-actions">
        <button
          type="button"
          className="button small primary"
          data-testid="as-of-back"
          onClick={onBackToToday}
        >
          {t('asOf.backToToday')}
        </button>
      </div>
    </div>
  );
}
