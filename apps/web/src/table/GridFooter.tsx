import { useTranslation } from 'react-i18next';
import { useFormatters } from '../i18n/useFormatters';

/** Below the grid: how many rows the table has and, while editing, what the row colours mean. */
export function GridFooter({ total, editing }: { total: number | null; editing: boolean }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <footer className="grid-footer">
      <span data-testid="row-count">
        {total === null
          ? ''
          : t('table.rowCount', { count: total, formatted: format.count(total) })}
      </span>
      {editing && (
        <span className="legend">
          <span className="legend-item legend-new">{t('rowState.new')}</span>
          <span className="legend-item legend-changed">{t('rowState.changed')}</span>
          <span className="legend-item legend-deleted">{t('rowState.deleted')}</span>
          <span className="legend-item legend-invalid">{t('legend.invalid')}</span>
        </span>
      )}
    </footer>
  );
}
