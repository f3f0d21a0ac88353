import { useTranslation } from 'react-i18next';
import { useFormatters } from '../i18n/useFormatters';

interface PagerProps {
  /** 1-based. */
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  /** Counting stopped at `total`: more match. */
  totalCapped?: boolean;
  /** Whether there are pages either side, where the list knows better than its count. */
  hasPrevious?: boolean;
  hasNext?: boolean;
}

/** Where in a long list the user is, and the way back and forth. */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
  totalCapped = false,
  hasPrevious = page > 1,
  hasNext,
}: PagerProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = totalCapped ? page * pageSize : Math.min(total, page * pageSize);
  return (
    <nav className="pager" aria-label={t('pager.label')}>
      <span className="muted" data-testid="pager-range">
        {t(totalCapped ? 'pager.rangeOfMore' : 'pager.range', {
          from: format.count(first),
          to: format.count(last),
          total: format.count(total),
        })}
      </span>
      <button
        type="button"
        className="button small"
        disabled={!hasPrevious}
        onClick={() => onPage(page - 1)}
      >
        {t('pager.previous')}
      </button>
      <button
        type="button"
        className="button small"
        disabled={!(hasNext ?? last < total)}
        onClick={() => onPage(page + 1)}
      >
        {t('pager.next')}
      </button>
    </nav>
  );
}
