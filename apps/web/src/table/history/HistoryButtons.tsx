import type { GridApi } from 'ag-grid-community';
import { type RefObject, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../ui/Notices';
import type { GridRow } from '../changes/gridRow';
import { ChangesDialog } from './ChangesDialog';
import type { RowValues } from './historyTypes';
import { RowHistoryDialog } from './RowHistoryDialog';

interface HistoryButtonsProps {
  table: string;
  grid: RefObject<GridApi<GridRow> | null>;
  /** The lock's token while this tab edits: the changes can then be reverted. */
  token: string | null;
}

/** Opens the table's changes, or the history of the grid's selected (else focused) stored row. */
export function HistoryButtons({ table, grid, token }: HistoryButtonsProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [changesOpen, setChangesOpen] = useState(false);
  const [historyKey, setHistoryKey] = useState<RowValues | null>(null);
  const openRowHistory = () => {
    const key = rowKeyOf(grid.current);
    if (key) setHistoryKey(key);
    else notify('info', (t) => t('changeHistory.pickRow'));
  };
  return (
    <span className="history-buttons">
      <button
        type="button"
        className="button small"
        title={t('changeHistory.openHint')}
        onClick={() => setChangesOpen(true)}
      >
        {t('changeHistory.open')}
      </button>
      <button
        type="button"
        className="button small"
        title={t('changeHistory.rowHistoryHint')}
        onClick={openRowHistory}
      >
        {t('changeHistory.rowHistory')}
      </button>
      <ChangesDialog
        open={changesOpen}
        table={table}
        token={token}
        onClose={() => setChangesOpen(false)}
        onReverted={(rows) => {
          grid.current?.refreshInfiniteCache();
          notify('success', (t) => t('changeHistory.reverted', { count: rows }));
        }}
      />
      <RowHistoryDialog table={table} rowKey={historyKey} onClose={() => setHistoryKey(null)} />
    </span>
  );
}

function rowKeyOf(api: GridApi<GridRow> | null): RowValues | null {
  if (!api) return null;
  const [selected] = api.getSelectedRows();
  if (selected?.key) return selected.key;
  const cell = api.getFocusedCell();
  // New rows (pinned on top) have no history yet.
  if (!cell || cell.rowPinned) return null;
  return api.getDisplayedRowAtIndex(cell.rowIndex)?.data?.key ?? null;
}
