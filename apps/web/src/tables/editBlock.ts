import type { TableStatus } from '../generated/graphql';

interface LockState {
  name: string;
  status: TableStatus;
  editor?: string | null;
  lockedBy: readonly string[];
  references: readonly string[];
}

/** Why a user cannot start editing a table right now. */
export type EditBlock =
  | { reason: 'beingEdited'; editor: string | null }
  | { reason: 'locked'; holders: readonly string[]; editor: string | null }
  | { reason: 'referenceBeingEdited'; table: string; editor: string | null };

/**
 * Null if `user` may start editing `table` (or is editing it already). Starting also takes a
 * shared lock on every referenced table, so one that somebody is editing blocks it too.
 */
export function editBlock(
  table: LockState,
  all: readonly LockState[],
  user: string,
): EditBlock | null {
  if (table.status === 'editing') {
    return table.editor === user ? null : { reason: 'beingEdited', editor: table.editor ?? null };
  }
  if (table.status === 'locked') {
    return { reason: 'locked', holders: table.lockedBy, editor: table.editor ?? null };
  }
  for (const name of table.references) {
    const referenced = all.find((candidate) => candidate.name === name);
    if (referenced?.status === 'editing') {
      return { reason: 'referenceBeingEdited', table: name, editor: referenced.editor ?? null };
    }
  }
  return null;
}
