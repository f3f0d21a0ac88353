import { useTranslation } from 'react-i18next';
import { useFormatters } from '../i18n/useFormatters';

interface PagerProps {
  /** 1-based. */
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}

/** Where in a long list the user is, and the way back and forth. */
export function Pager({ page, pageSize, total, onPage }: PagerProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav className="pager" aria-label={t('pager.label')}>
      <span className="muted" data-testid="pager-range">
        {t('pager.range', {
          from: format.count(first),
          to: format.count(last),
          total: format.count(total),
        })}
      </span>
      <button
        type="button"
        className="button small"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        {t('pager.previous')}
      </button>
      <button
        type="button"
        className="button small"
        disabled={last >= total}
        onClick={() => onPage(page + 1)}
      >
        {t('pager.next')}
      </button>
    </nav>
  );
}
