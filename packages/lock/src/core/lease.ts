import { LockError } from './lockError';

export const DEFAULT_LEASE_SECONDS = 60;
export const MIN_LEASE_SECONDS = 15;
export const MAX_LEASE_SECONDS = 3600;

/**
 * The lease an acquisition or renewal gets: the default when none is asked for, else what was
 * asked within bounds. `null` (no expiry) only where `mayBeUnlimited` (admin API keys).
 * `minSeconds` is lower than MIN_LEASE_SECONDS only in tests (the API's LEASE_MIN_SECONDS).
 */
export function leaseSeconds(
  requested: number | null | undefined,
  mayBeUnlimited: boolean,
  minSeconds = MIN_LEASE_SECONDS,
): number | null {
  if (requested === undefined) return DEFAULT_LEASE_SECONDS;
  if (requested === null) {
    if (mayBeUnlimited) return null;
    throw new LockError('FORBIDDEN', 'Only an admin API key may hold a lock without expiry.');
  }
  if (!Number.isInteger(requested) || requested < minSeconds || requested > MAX_LEASE_SECONDS) {
    throw new LockError(
      'BAD_USER_INPUT',
      `leaseSeconds must be a whole number from ${minSeconds} to ${MAX_LEASE_SECONDS}.`,
    );
  }
  return requested;
}
