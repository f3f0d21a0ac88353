import type { GridApi } from 'ag-grid-community';
import type { ReactNode, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { ChangeSummary } from './ChangeSummary';
import { deleteSelectedRows } from './deleteSelectedRows';
import type { GridRow } from './gridRow';
import type { ChangeCounts, PendingChanges } from './PendingChanges';
import { SetValueAction } from './SetValueAction';
import { useAddRow } from './useAddRow';

interface EditToolbarProps {
  table: string;
  pending: PendingChanges;
  columns: Parameters<typeof SetValueAction>[0]['columns'];
  grid: RefObject<GridApi<GridRow> | null>;
  lockLost: boolean;
  /** Rows selected in the grid. */
  selected: number;
  counts: ChangeCounts;
  invalid: number;
  /** What a new row starts with: in a row scope, the scope's (first) value of its column. */
  newRowValues: Readonly<Record<string, string>> | undefined;
  /** Actions on the changes as a whole, first: the row actions end next to the grid. */
  children?: ReactNode;
}

/** Above the grid while editing: add, set and delete rows, and what is unsaved so far. */
export function EditToolbar(props: EditToolbarProps) {
  const { t } = useTranslation();
  const { pending, grid } = props;
  const addRow = useAddRow(props.table, pending, props.columns, props.newRowValues);
  return (
    <div className="edit-toolbar" role="toolbar" aria-label={t('table.editTools')}>
      {props.children}
      <button type="button" className="button small" disabled={props.lockLost} onClick={addRow}>
        + {t('table.addRow')}
      </button>
      <SetValueAction
        table={props.table}
        pending={pending}
        columns={props.columns}
        selected={props.selected}
        selectedRows={() => grid.current?.getSelectedRows() ?? []}
        disabled={props.lockLost}
      />
      {/* Delete stays last of the row actions, next to the grid. */}
      <button
        type="button"
        className="button small"
        disabled={props.lockLost || props.selected === 0}
        onClick={() => deleteSelectedRows(pending, grid.current)}
      >
        {props.selected === 0
          ? t('table.deleteRows')
          : t('table.deleteSelected', { count: props.selected })}
      </button>
      <ChangeSummary counts={props.counts} invalid={props.invalid} />
    </div>
  );
}
