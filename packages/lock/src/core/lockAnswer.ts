import { LockError, type LockErrorCode } from './lockError';
import { describeLockRefusal, type LockRefusal } from './lockRefusal';

/**
 * What a lock operation answers: granted (with what it gives), or refused, saying why. A refusal
 * is a result, not an error — someone else holds what it needs, and a later try may succeed —
 * and it is already in the audit history when the operation returns.
 */
export type LockAnswer<T> = { granted: T } | { refused: LockRefusal; tableName: string };

export function isGranted<T>(answer: LockAnswer<T>): answer is { granted: T } {
  return 'granted' in answer;
}

/** The error code of a refusal by an admin's rules, rather than by someone in the way. */
export function policyErrorCode(kind: LockRefusal['kind']): LockErrorCode | null {
  switch (kind) {
    case 'readOnly':
      return 'TABLE_READ_ONLY';
    case 'frozen':
      return 'TABLE_FROZEN';
    case 'notAllowed':
      return 'FORBIDDEN';
    default:
      return null;
  }
}

/**
 * What the answer grants; a refusal becomes LOCK_CONFLICT (or, when an admin's rules refused
 * it, TABLE_READ_ONLY, TABLE_FROZEN or FORBIDDEN), in words for people and as data
 * (`editBlock`, `blockers`: who is in the way) for clients to show in their own.
 */
export function grantedOrConflict<T>(answer: LockAnswer<T>): T {
  if (isGranted(answer)) return answer.granted;
  const { refused, tableName } = answer;
  throw new LockError(
    policyErrorCode(refused.kind) ?? 'LOCK_CONFLICT',
    `Refused: ${describeLockRefusal(tableName, refused)}.`,
    refusalDetails(refused),
  );
}

/**
 * Who is in the way, as the data an error carries: `editBlock` (its kind) and `blockers`; for
 * rows another transaction held, `rowHolders`.
 */
export function refusalDetails(refused: LockRefusal): Record<string, unknown> {
  if (refused.kind === 'contended') return refused.holders ? { rowHolders: refused.holders } : {};
  if (!('blockers' in refused)) return {};
  const reason = 'reason' in refused && refused.reason ? { reason: refused.reason } : {};
  return { editBlock: refused.kind, blockers: refused.blockers, ...reason };
}
