import type { Blocker } from './blocker';
import type { EditBlock } from './editBlock';
import { describeRowHolders, type RowHolder } from './rowHolder';

/**
 * Why a lock change was not made, as data (a result, not an error: someone else holds what it
 * needs, or the state moved on). `describeLockRefusal` puts it into words.
 */
export type LockRefusal =
  | EditBlock
  /** A release of a table that nobody is editing. */
  | { kind: 'notEditing' }
  /** A legacy release naming referenced tables that this table does not hold. */
  | { kind: 'notHeld'; tables: string[] }
  /** An expiry of a lock whose lease is still running. */
  | { kind: 'leaseRunning' }
  /**
   * Another transaction held some of the rows: a change of them in progress, or a session
   * outside tablelock. `holders`: who, when they could be found (see RowHolder).
   */
  | { kind: 'contended'; holders?: RowHolder[] }
  /** A lock that waits with a change request, which a caller without its token cannot end. */
  | { kind: 'changeRequestPending' };

/** The tables whose editing is in the way: if their leases ran out, expiring them frees it. */
export function blockingTables(refusal: LockRefusal): string[] {
  return 'blockers' in refusal ? refusal.blockers.map((blocker) => blocker.table) : [];
}

/** The refusal in English, for error messages and the audit history. */
export function describeLockRefusal(tableName: string, refusal: LockRefusal): string {
  switch (refusal.kind) {
    case 'beingEdited':
      return `${tableName} is being edited by ${editorsText(refusal.blockers)}`;
    case 'lockedByEditing': {
      const holders = refusal.blockers.map((blocker) => blocker.table);
      return `${tableName} is locked because ${holders.join(', ')} ${holders.length > 1 ? 'are' : 'is'} being edited`;
    }
    case 'referenceBeingEdited':
      return [...new Set(refusal.blockers.map((blocker) => blocker.table))]
        .map(
          (table) =>
            `${table} (referenced) is being edited by ${editorsText(refusal.blockers.filter((blocker) => blocker.table === table))}`,
        )
        .join('; ');
    case 'queued': {
      const waiting = refusal.blockers.map(
        (blocker) => `${editorText(blocker.editor)} (${blocker.table})`,
      );
      return `${waiting.join(', ')} ${waiting.length > 1 ? 'are' : 'is'} in line for it first`;
    }
    case 'readOnly':
      return `${tableName} is read-only`;
    case 'frozen':
      return `${tableName} is frozen: ${refusal.reason ?? 'no reason given'}`;
    case 'notAllowed':
      return `you are not among those who may edit ${tableName}`;
    case 'notEditing':
      return `${tableName} is not being edited`;
    case 'notHeld':
      return `${refusal.tables.join(', ')} ${refusal.tables.length > 1 ? 'are' : 'is'} not locked by ${tableName}`;
    case 'leaseRunning':
      return `${tableName}'s lease is not over`;
    case 'contended':
      return refusal.holders?.length
        ? `the lock rows of these tables are ${describeRowHolders(refusal.holders)}; try again`
        : 'another change to these tables was in progress; try again';
    case 'changeRequestPending':
      return `${tableName}'s lock waits with a change request`;
  }
}

const editorText = (editor: string | null | undefined) => editor ?? 'someone';

/** "alice", or for row scopes "alice (rows 11, 12), bob (rows 21)". */
const editorsText = (blockers: readonly Blocker[]) =>
  blockers
    .map((blocker) =>
      blocker.rows
        ? `${editorText(blocker.editor)} (rows ${blocker.rows.join(', ')})`
        : editorText(blocker.editor),
    )
    .join(', ') || editorText(null);
