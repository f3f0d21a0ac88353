import type { GridRow } from '../changes/gridRow';
import { type RowScope, rowInScope } from './rowScopeOf';

/** What the grid's columns ask of the table's row scopes, always of the latest ones. */
export interface GridScope {
  /** The row-lock column. */
  column: string;
  /** Whether the user may edit `row`: a new row, or one in their scope (any, outside a scope). */
  rowInScope(row: GridRow): boolean;
  /** Who holds the row's value of the row-lock column, if anyone. */
  holderOf(row: GridRow): string | null;
  /** The values of the user's scope, the only ones a row of theirs may take; null outside one. */
  choices(): readonly string[] | null;
}

/** Reads the scope through `latest`, so that columns need not be rebuilt when scopes change. */
export function gridScope(
  column: string,
  latest: () => RowScope | null,
  isNew: (rowId: string) => boolean,
): GridScope {
  const rowValue = (row: GridRow) => row.values[column] ?? null;
  return {
    column,
    rowInScope: (row) => rowInScope(latest(), row, isNew(row.id)),
    holderOf: (row) => {
      const value = rowValue(row);
      return value === null || isNew(row.id) ? null : (latest()?.holders.get(value) ?? null);
    },
    choices: () => latest()?.mine ?? null,
  };
}
