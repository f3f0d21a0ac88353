import type { ColDef, ColumnState } from 'ag-grid-community';
import type { ColumnLayoutInput, RowSort } from '../../generated/graphql';

export type ColumnLayout = ColumnLayoutInput;

/**
 * The grid's columns as laid out: the table's columns in the layout's order (those it does not
 * name after them, in their own order), starting with its widths, hidden and pinned columns and
 * its sort. Only the start: later changes are the user's (or `columnStateOf`'s) and new column
 * definitions must not undo them. Columns of the grid's own (the row status) stay in front.
 */
export function arrangeColumns<TData>(
  defs: readonly ColDef<TData>[],
  dataColumns: ReadonlySet<string>,
  layout: readonly ColumnLayout[],
  sort: readonly RowSort[],
): ColDef<TData>[] {
  const byColumn = new Map(layout.map((entry, index) => [entry.column, { entry, index }]));
  const sortIndex = new Map(sort.map((term, index) => [term.column, { term, index }]));
  const fixed = defs.filter((def) => !dataColumns.has(def.colId ?? ''));
  const data = defs
    .filter((def) => dataColumns.has(def.colId ?? ''))
    .map(({ width, ...def }, position) => {
      const laidOut = byColumn.get(def.colId ?? '');
      const sorted = sortIndex.get(def.colId ?? '');
      // `width` would be applied again with every new set of column definitions, undoing the
      // user's resizing; `initialWidth` only when the column is made.
      const arranged: ColDef<TData> = {
        ...def,
        initialWidth: laidOut?.entry.width ?? width,
        ...(laidOut
          ? { initialHide: laidOut.entry.hidden, initialPinned: laidOut.entry.pinned ?? undefined }
          : {}),
        ...(sorted ? { initialSort: sorted.term.direction, initialSortIndex: sorted.index } : {}),
      };
      return { arranged, order: laidOut?.index ?? layout.length + position };
    })
    .sort((a, b) => a.order - b.order)
    .map(({ arranged }) => arranged);
  return [...fixed, ...data];
}

/** The table's columns as the grid shows them now: order, widths, hidden and pinned. */
export function layoutOfGrid(
  state: readonly ColumnState[],
  dataColumns: ReadonlySet<string>,
): ColumnLayout[] {
  return state
    .filter((column) => dataColumns.has(column.colId))
    .map((column) => ({
      column: column.colId,
      width: column.width ?? null,
      hidden: column.hide === true,
      pinned: column.pinned === 'left' || column.pinned === 'right' ? column.pinned : null,
    }));
}

/** The grid's sort, as the API takes it. */
export function sortOfGrid(state: readonly ColumnState[]): RowSort[] {
  return state
    .filter((column) => column.sort === 'asc' || column.sort === 'desc')
    .sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0))
    .map((column) => ({ column: column.colId, direction: column.sort as 'asc' | 'desc' }));
}

/** A layout as the grid applies it to columns that exist (a saved view picked). */
export function columnStateOf(layout: readonly ColumnLayout[]): ColumnState[] {
  return layout.map((entry) => ({
    colId: entry.column,
    ...(entry.width != null ? { width: entry.width } : {}),
    hide: entry.hidden,
    pinned: entry.pinned ?? null,
  }));
}
