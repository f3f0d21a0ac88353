import { LockError } from '@tablelock/lock';

const MAX_REASON_LENGTH = 500;

/** A reason for overriding someone's lock: required, recorded in the audit history. */
export function requiredReason(reason: string): string {
  const why = reason.trim();
  if (why.length === 0 || why.length > MAX_REASON_LENGTH) {
    throw new LockError(
      'BAD_USER_INPUT',
      `reason is required (1–${MAX_REASON_LENGTH} characters).`,
    );
  }
  return why;
}
