import { policyErrorCode, refusalDetails } from '../core/lockAnswer';
import { LockError } from '../core/lockError';
import { describeLockRefusal, type LockRefusal } from '../core/lockRefusal';

// Kinds in which the caller's own editing can stand in the way.
const EDITING_BLOCKS: ReadonlySet<LockRefusal['kind']> = new Set([
  'beingEdited',
  'lockedByEditing',
  'referenceBeingEdited',
]);

/**
 * Why waiting in line could never get `editor` the table, as the error to answer at once, or
 * null when a wait may end the refusal. An admin's rules (read-only, frozen, not among those
 * who may edit) end only when an admin acts; the caller's own editing ends only when the caller
 * releases it. A waiter kept in line for either would only hold up everyone behind it.
 */
export function waitWouldNotEnd(
  { refused, tableName }: { refused: LockRefusal; tableName: string },
  editor: string,
): LockError | null {
  const policyCode = policyErrorCode(refused.kind);
  if (policyCode) {
    return new LockError(
      policyCode,
      `Refused: ${describeLockRefusal(tableName, refused)}.`,
      refusalDetails(refused),
    );
  }
  if (
    EDITING_BLOCKS.has(refused.kind) &&
    'blockers' in refused &&
    refused.blockers.some((blocker) => blocker.editor === editor)
  ) {
    return new LockError(
      'LOCK_CONFLICT',
      `Refused: ${describeLockRefusal(tableName, refused)}; you hold it yourself, so waiting would not end that: release it first.`,
      refusalDetails(refused),
    );
  }
  return null;
}
