import './scopeGrid.css';
import type { ColDef } from 'ag-grid-community';
import type { TFunction } from 'i18next';
import type { GridRow } from '../changes/gridRow';

export const HOLDER_COLUMN_ID = '__holder';

/**
 * A column naming, per row, who holds its value of the row-lock column in a row scope (empty
 * when nobody does): whose rows are whose while several edit one table.
 */
export function holderColumn(
  holderOf: (row: GridRow) => string | null,
  hide: boolean,
  t: TFunction,
): ColDef<GridRow> {
  return {
    colId: HOLDER_COLUMN_ID,
    headerName: t('rowScope.holderColumn'),
    headerTooltip: t('rowScope.holderColumnHint'),
    // Not pinned: on a phone the pinned row status and checkboxes take most of the width.
    width: 120,
    hide,
    sortable: false,
    filter: false,
    editable: false,
    suppressMovable: true,
    valueGetter: ({ data }) => (data ? holderOf(data) : null),
    cellClass: 'cell-holder',
  };
}
