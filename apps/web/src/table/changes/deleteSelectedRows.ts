import type { GridApi } from 'ag-grid-community';
import type { GridRow } from './gridRow';
import type { PendingChanges } from './PendingChanges';

/** Marks the grid's selected rows for deletion (new rows simply go), and clears the selection. */
export function deleteSelectedRows(pending: PendingChanges, api: GridApi<GridRow> | null): void {
  if (!api) return;
  pending.delete(api.getSelectedRows());
  api.deselectAll();
}
