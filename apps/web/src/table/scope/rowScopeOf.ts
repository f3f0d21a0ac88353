import type { TableInfo } from '../../tables/useTables';
import type { GridRow } from '../changes/gridRow';

/** How a table's rows are shared out among its row scopes, as this user sees it. */
export interface RowScope {
  /** The row-lock column: a row belongs to the scope holding its value of it. */
  column: string;
  /** The values of the user's own scope; null while the user holds none. */
  mine: readonly string[] | null;
  /** Who holds each value held by anyone. */
  holders: ReadonlyMap<string, string>;
}

/**
 * The table's row scopes for `user`; null for a table without a row-lock column. The app takes
 * one scope per user and table (a second tab edits elsewhere, as with a whole-table lock), so the
 * user's values are those of their scope.
 */
export function rowScopeOf(info: TableInfo, user: string): RowScope | null {
  if (!info.rowLockColumn) return null;
  const holders = new Map<string, string>();
  for (const scope of info.rowLocks) {
    for (const value of scope.rows) holders.set(value, scope.editor);
  }
  const own = info.rowLocks.find((scope) => scope.editor === user);
  return { column: info.rowLockColumn, mine: own ? own.rows : null, holders };
}

/** Whether a row with `value` in the row-lock column may be edited in the user's scope. */
export function inScope(scope: RowScope | null, value: string | null | undefined): boolean {
  if (!scope?.mine) return true;
  return value != null && scope.mine.includes(value);
}

/**
 * Whether the user may edit `row` in their scope: a new row (its value is one of theirs), or a
 * stored row whose value of the row-lock column is theirs. Any row outside a scope.
 */
export function rowInScope(scope: RowScope | null, row: GridRow, isNew: boolean): boolean {
  return isNew || scope === null || inScope(scope, row.values[scope.column]);
}
