import { useTranslation } from 'react-i18next';
import { useFormatters } from '../i18n/useFormatters';
import { ExportButtons } from './files/ExportButtons';
import type { RowView } from './grid/createRowDatasource';

interface GridFooterProps {
  table: string;
  total: number | null;
  /** The sort and filter of the rows shown: what an export writes. */
  view: RowView;
  editing: boolean;
  /** Opens the import dialog; only while the lock is held. */
  onImport?: () => void;
}

/**
 * Below the grid: how many rows the view has, its exports and, while editing, the import and
 * what the row colours mean.
 */
export function GridFooter({ table, total, view, editing, onImport }: GridFooterProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <footer className="grid-footer">
      <span className="grid-footer-view">
        <span data-testid="row-count">
          {total === null
            ? ''
            : t('table.rowCount', { count: total, formatted: format.count(total) })}
        </span>
        <ExportButtons table={table} view={view} />
        {onImport && (
          <button
            type="button"
            className="button small"
            title={t('import.buttonHint')}
            onClick={onImport}
          >
            {t('import.button')}
          </button>
        )}
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
