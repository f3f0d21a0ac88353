import { MasterDataError } from '../masterDataError';

/** How far ahead a change may be scheduled. */
export const MAX_YEARS_AHEAD = 5;

/**
 * `effectiveAt` if a request may take effect then: after `now`, at most five years on; else
 * BAD_USER_INPUT. Checked at submission and at every move, against the database's clock, the
 * one the scheduler keeps.
 */
export function validEffectiveAt(effectiveAt: Date, now: Date): Date {
  if (Number.isNaN(effectiveAt.getTime())) {
    throw new MasterDataError('BAD_USER_INPUT', 'effectiveAt is not a time.');
  }
  if (effectiveAt.getTime() <= now.getTime()) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `effectiveAt ${effectiveAt.toISOString()} is in the past: a change is scheduled for a time to come; save it to apply it now.`,
      { effectiveAt: 'past' },
    );
  }
  const latest = new Date(now);
  latest.setUTCFullYear(latest.getUTCFullYear() + MAX_YEARS_AHEAD);
  if (effectiveAt.getTime() > latest.getTime()) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `effectiveAt ${effectiveAt.toISOString()} is more than five years ahead (the latest is ${latest.toISOString()}).`,
      { effectiveAt: 'tooFar', latest: latest.toISOString() },
    );
  }
  return effectiveAt;
}
