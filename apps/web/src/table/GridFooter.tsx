import type { GridApi } from 'ag-grid-community';
import { type RefObject, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../i18n/useFormatters';
import { useNotify } from '../ui/Notices';
import type { GridRow } from './changes/gridRow';
import { ExportButtons } from './files/ExportButtons';
import { ImportDialog } from './files/ImportDialog';
import type { ScheduledImport } from './files/ScheduleImportStep';
import type { RowView } from './grid/createRowDatasource';

interface GridFooterProps {
  table: string;
  total: number | null;
  /** The sort and filter of the rows shown: what an export writes. */
  view: RowView;
  editing: boolean;
  grid: RefObject<GridApi<GridRow> | null>;
  /** The lock's token while this tab edits: only then can a file be imported. */
  importToken: string | null;
  unsaved: number;
  /** The table's policy needs approval: a scheduled import waits for it first. */
  needsApproval: boolean;
  onImportScheduled: (request: ScheduledImport, keepEditing: boolean) => void;
}

/**
 * Below the grid: how many rows the view has, its exports and, while editing, the import (its
 * dialog too) and what the row colours mean.
 */
export function GridFooter(props: GridFooterProps) {
  const { table, total, view, editing, grid, importToken, unsaved } = props;
  const { t } = useTranslation();
  const format = useFormatters();
  const notify = useNotify();
  const [importing, setImporting] = useState(false);
  return (
    <footer className="grid-footer">
      <span className="grid-footer-view">
        <span data-testid="row-count">
          {total === null
            ? ''
            : t('table.rowCount', { count: total, formatted: format.count(total) })}
        </span>
        <ExportButtons table={table} view={view} />
        {importToken && (
          <button
            type="button"
            className="button small"
            title={t('import.buttonHint')}
            onClick={() => setImporting(true)}
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
      <ImportDialog
        open={importing && importToken !== null}
        table={table}
        token={importToken}
        unsaved={unsaved}
        onClose={() => setImporting(false)}
        onApplied={(written) => {
          setImporting(false);
          grid.current?.refreshInfiniteCache();
          notify('success', (t) => t('import.applied', written));
        }}
        needsApproval={props.needsApproval}
        onScheduled={(request, keepEditing) => {
          setImporting(false);
          props.onImportScheduled(request, keepEditing);
        }}
      />
    </footer>
  );
}
