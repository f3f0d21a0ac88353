import type { Blocker } from './blocker';
import type { LockRow } from './lockRow';

/**
 * Why a table cannot be edited now, as data: words are chosen where it is shown.
 * - `beingEdited`: the table itself is (the one blocker);
 * - `lockedByEditing`: it is `locked` (a shared lock) because the blockers are being edited;
 * - `referenceBeingEdited`: tables it references are, and starting would lock them;
 * - `queued`: nothing is, but the blockers are in line for it first (the tables they wait for).
 */
export interface EditBlock {
  kind: 'beingEdited' | 'lockedByEditing' | 'referenceBeingEdited' | 'queued';
  blockers: Blocker[];
}

/** What the rule looks at in a table's lock row. */
type LockState = Pick<LockRow, 'tableName' | 'status' | 'editor' | 'lockedBy'>;

/**
 * Why `table` cannot be edited, or null: the rule acquisitions are decided by and the one every
 * reader is shown. `referenced` are the rows of the tables it would lock; `editorOf` names the
 * editor of a holder table, where the caller has its row.
 */
export function editBlockOf(
  table: LockState,
  referenced: readonly LockState[],
  editorOf: (tableName: string) => string | null,
): EditBlock | null {
  if (table.status === 'editing') {
    return { kind: 'beingEdited', blockers: [{ table: table.tableName, editor: table.editor }] };
  }
  if (table.status === 'locked') {
    return {
      kind: 'lockedByEditing',
      blockers: table.lockedBy.map((holder) => ({ table: holder, editor: editorOf(holder) })),
    };
  }
  const edited = referenced.filter((row) => row.status === 'editing');
  if (edited.length === 0) return null;
  return {
    kind: 'referenceBeingEdited',
    blockers: edited.map((row) => ({ table: row.tableName, editor: row.editor })),
  };
}
