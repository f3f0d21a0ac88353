import { DomainError } from '@tablelock/errors';

/** Why a lock operation was refused outright (as opposed to losing a race, which is a result). */
export type LockErrorCode =
  | 'BAD_USER_INPUT'
  | 'TABLE_NOT_FOUND'
  | 'TABLE_PARTITIONED'
  | 'INVALID_TRANSITION'
  | 'FORBIDDEN'
  | 'TABLE_READ_ONLY'
  | 'TABLE_FROZEN'
  | 'LOCK_CONFLICT'
  | 'LOCK_LOST'
  | 'LOCK_WAIT_TIMEOUT'
  | 'ALREADY_IN_LINE'
  | 'TOO_MANY_WAITERS';

export class LockError extends DomainError<LockErrorCode> {}
