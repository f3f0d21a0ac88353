import type { GridApi } from 'ag-grid-community';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../ui/Notices';
import type { GridRow } from '../changes/gridRow';
import type { RowValues } from './historyTypes';

interface HistoryButtonsProps {
  grid: RefObject<GridApi<GridRow> | null>;
  onChanges: () => void;
  onRowHistory: (key: RowValues) => void;
}

/** Opens the table's changes, or the history of the grid's selected (else focused) stored row. */
export function HistoryButtons({ grid, onChanges, onRowHistory }: HistoryButtonsProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const openRowHistory = () => {
    const key = rowKeyOf(grid.current);
    if (key) onRowHistory(key);
    else notify('info', t('changeHistory.pickRow'));
  };
  return (
    <span className="history-buttons">
      <button
        type="button"
        className="button small"
        title={t('changeHistory.openHint')}
        onClick={onChanges}
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
