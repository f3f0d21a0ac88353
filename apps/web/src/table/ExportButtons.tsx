import { useTranslation } from 'react-i18next';
import type { RowView } from './createRowDatasource';
import { exportUrl } from './exportUrl';

/**
 * Downloads of the grid's rows, all of them in its current sort and filter, as the server
 * streams them. Links, not fetches: the browser saves the file as it arrives, however large.
 */
export function ExportButtons({ table, view }: { table: string; view: RowView }) {
  const { t } = useTranslation();
  return (
    <span className="export-buttons">
      <a
        className="button small"
        href={exportUrl(table, 'csv', view)}
        download
        title={t('table.exportHint')}
      >
        {t('table.exportCsv')}
      </a>
      <a
        className="button small"
        href={exportUrl(table, 'xlsx', view)}
        download
        title={t('table.exportHint')}
      >
        {t('table.exportXlsx')}
      </a>
    </span>
  );
}
