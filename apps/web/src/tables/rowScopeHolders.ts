import type { TableInfo } from './useTables';

/** Who edits which part of a table, by row scope: "alice: 11, 12 · bob: 21". */
export function rowScopeHolders(rowLocks: TableInfo['rowLocks']): string {
  return rowLocks.map((scope) => `${scope.editor}: ${scope.rows.join(', ')}`).join(' · ');
}
