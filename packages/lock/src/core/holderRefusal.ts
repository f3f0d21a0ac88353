import { policyBlockOf } from './editBlock';
import { policyErrorCode } from './lockAnswer';
import { LockError } from './lockError';
import { describeLockRefusal } from './lockRefusal';
import type { LockRow } from './lockRow';
import { DEFAULT_TABLE_RULES, type EditorRights } from './tableRules';

/**
 * A holder going on with its lock (a renewal, or a take-over of its own for a fresh token) must
 * still be allowed to start it: not on a table now read-only, nor one whose policy now leaves
 * the holder out. A freeze lets holders go on (it stops only new editing). The lock itself is
 * kept until it is released or its lease runs out: nothing the holder saved is lost. Null when
 * the holder may go on, else why not.
 */
export function holderRefusal(
  main: Pick<LockRow, 'tableName' | 'rules'>,
  rights: EditorRights | undefined,
): LockError | null {
  const block = policyBlockOf(
    { ...main, rules: { ...(main.rules ?? DEFAULT_TABLE_RULES), frozen: null } },
    rights,
  );
  if (!block) return null;
  return new LockError(
    policyErrorCode(block.kind) ?? 'FORBIDDEN',
    `${describeLockRefusal(main.tableName, block)}: the lock cannot be renewed or taken over; it ends when released or when its lease runs out.`,
    { editBlock: block.kind },
  );
}
