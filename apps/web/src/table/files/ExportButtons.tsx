import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../transfer/downloadFile';
import { TransferProgressPanel } from '../../transfer/TransferProgressPanel';
import type { TransferProgress } from '../../transfer/transferProgress';
import { describeError } from '../../ui/describeError';
import type { RowView } from '../grid/createRowDatasource';
import { type ExportFormat, exportUrl } from './exportUrl';

const LABELS = { csv: 'table.exportCsv', xlsx: 'table.exportXlsx' } as const satisfies Record<
  ExportFormat,
  string
>;

/**
 * Downloads of the grid's rows, all of them in its current sort and filter, as the server
 * streams them. A click fetches the file here, to show how much has arrived and to say why a
 * refusal was one; the links still work as links (open in a new tab, save link as).
 */
export function ExportButtons({ table, view }: { table: string; view: RowView }) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<TransferProgress | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const download = async (format: ExportFormat) => {
    const file = `${table}.${format}`;
    setProblem(null);
    setProgress({ phase: 'download', file, loaded: 0, total: null, since: Date.now() });
    try {
      await downloadFile(exportUrl(table, format, view), file, (loaded, total) =>
        setProgress((current) =>
          current?.phase === 'download' ? { ...current, loaded, total } : current,
        ),
      );
    } catch (error) {
      setProblem(describeError(error, t));
    } finally {
      setProgress(null);
    }
  };

  return (
    <div className="export-buttons" aria-busy={progress !== null}>
      {(['csv', 'xlsx'] as const).map((format) => (
        <a
          key={format}
          className="button small"
          href={exportUrl(table, format, view)}
          download
          title={t('table.exportHint')}
          aria-disabled={progress !== null}
          onClick={(event) => {
            // Other clicks (a new tab, a modifier) are the browser's own.
            if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
            event.preventDefault();
            if (progress === null) void download(format);
          }}
        >
          {t(LABELS[format])}
        </a>
      ))}
      <TransferProgressPanel progress={progress} />
      {problem && (
        <p className="banner banner-error export-problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
