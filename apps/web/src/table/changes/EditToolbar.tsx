import type { GridApi } from 'ag-grid-community';
import type { ReactNode, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useNarrowScreen } from '../../ui/useNarrowScreen';
import { OverflowMenu } from '../phone/OverflowMenu';
import { ChangeSummary } from './ChangeSummary';
import { deleteSelectedRows } from './deleteSelectedRows';
import type { GridRow } from './gridRow';
import type { ChangeCounts, PendingChanges } from './PendingChanges';
import { SetValueAction } from './SetValueAction';
import type { KeyedColumn } from './SetValueDialog';
import { useAddRow } from './useAddRow';

interface EditToolbarProps {
  /** The table being edited. */
  table: string;
  pending: PendingChanges;
  columns: readonly KeyedColumn[];
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

/**
 * Above the grid while editing: add rows, set a value on or delete the selected ones, and what
 * is unsaved so far. On a phone the row actions are one menu; the grid has no checkboxes there,
 * so the actions on selected rows are left out (a tapped row opens Row details, which deletes it).
 */
export function EditToolbar(props: EditToolbarProps) {
  const { t } = useTranslation();
  const narrow = useNarrowScreen();
  const { pending, grid } = props;
  const onAddRow = useAddRow(props.table, pending, props.columns, props.newRowValues);
  const addRow = (
    <button type="button" className="button small" disabled={props.lockLost} onClick={onAddRow}>
      + {t('table.addRow')}
    </button>
  );
  if (narrow) {
    return (
      <div
        className="edit-toolbar edit-toolbar-narrow"
        role="toolbar"
        aria-label={t('table.editTools')}
      >
        {props.children}
        <OverflowMenu label={t('table.editTools')}>{addRow}</OverflowMenu>
        <ChangeSummary counts={props.counts} invalid={props.invalid} />
      </div>
    );
  }
  return (
    <div className="edit-toolbar" role="toolbar" aria-label={t('table.editTools')}>
      {props.children}
      {addRow}
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
