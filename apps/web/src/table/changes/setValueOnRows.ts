import type { GridRow } from './gridRow';
import { normalizeInput } from './normalizeInput';
import type { PendingChanges } from './PendingChanges';
import type { ColumnRules } from './validateValue';

/**
 * "Set this value on the selected rows": the value as typed once, normalized as typing is,
 * written into the column of every row as one undo step. Rows marked for deletion stay as they are.
 */
export function setValueOnRows(
  pending: PendingChanges,
  rows: readonly GridRow[],
  column: ColumnRules,
  text: string,
): void {
  const value = normalizeInput(column.kind, column.nullable, text);
  pending.step(() => {
    for (const row of rows) {
      if (pending.stateOf(row.id) !== 'deleted') pending.setValue(row, column.name, value);
    }
  });
}
