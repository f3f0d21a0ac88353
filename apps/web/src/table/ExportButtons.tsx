import { useTranslation } from 'react-i18next';
import type { RowView } from './createRowDatasource';
import { type ExportFormat, exportUrl } from './exportUrl';

const LABELS = { csv: 'table.exportCsv', xlsx: 'table.exportXlsx' } as const satisfies Record<
  ExportFormat,
  string
>;

/**
 * Downloads of the grid's rows, all of them in its current sort and filter, as the server
 * streams them. Links, not fetches: the browser saves the file as it arrives, however large.
 */
export function ExportButtons({ table, view }: { table: string; view: RowView }) {
  const { t } = useTranslation();
  return (
    <span className="export-buttons">
      {(['csv', 'xlsx'] as const).map((format) => (
        <a
          key={format}
          className="button small"
          href={exportUrl(table, format, view)}
          download
          title={t('table.exportHint')}
        >
          {t(LABELS[format])}
        </a>
      ))}
    </span>
  );
}
