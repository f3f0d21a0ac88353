import { DomainError } from '@tablelock/errors';
import type { LockEventInput } from './lockEvent';

/** Why a lock operation was refused outright (as opposed to losing a race, which is a result). */
export type LockErrorCode =
  | 'BAD_USER_INPUT'
  | 'TABLE_NOT_FOUND'
  | 'INVALID_TRANSITION'
  | 'FORBIDDEN'
  | 'LOCK_CONFLICT'
  | 'LOCK_LOST'
  | 'IDEMPOTENCY_KEY_REUSED';

export class LockError extends DomainError<LockErrorCode> {
  /**
   * An audit event that belongs to this refusal but could not be written where it happened
   * (inside a transaction the refusal rolls back); whoever owns that transaction writes it.
   */
  unrecordedEvent?: LockEventInput;
}
