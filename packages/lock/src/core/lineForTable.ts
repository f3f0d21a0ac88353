import type { Blocker } from './blocker';
import type { Waiter } from './waiter';

/**
 * Whether `waiter` goes before anyone who starts editing `table` (which references
 * `references`): it wants to edit the table or one of those it would lock, or to lock the table.
 */
export function wantsTable(waiter: Waiter, table: string, references: readonly string[]): boolean {
  return (
    waiter.tables.includes(table) ||
    waiter.references.includes(table) ||
    waiter.tables.some((name) => references.includes(name))
  );
}

/**
 * Of `inLine` (those who want the table, first in line first), those before `editor`: before
 * the editor's own earliest waiter for `table`, or all of them if it has none.
 */
export function lineAheadOf(inLine: readonly Waiter[], table: string, editor: string): Waiter[] {
  const own = inLine.findIndex(
    (waiter) => waiter.editor === editor && waiter.tables.includes(table),
  );
  return own === -1 ? [...inLine] : inLine.slice(0, own);
}

/** Those in line first, as blockers: who, and the table of theirs that is in the way. */
export function lineBlockers(ahead: readonly Waiter[], table: string): Blocker[] {
  return ahead.map((waiter) => ({
    table: waiter.tables.includes(table) ? table : (waiter.tables[0] ?? table),
    editor: waiter.editor,
  }));
}
