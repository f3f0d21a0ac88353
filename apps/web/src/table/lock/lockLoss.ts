import type { LockEvent } from '../../live/liveContext';

/**
 * Why this tab's lock ended: the announced event that ended it (who, how, why), or, when the
 * end was only learnt from a refused save or renewal, the server's account of it.
 */
export type LockLoss = { event: LockEvent } | { message: string };

// The history's reason for a lock the server ended because its holder was idle too long.
const IDLE_REASON = 'idle';

/** Whether the lock ended because its holder showed no activity up to the idle limit. */
export function releasedForInactivity(loss: LockLoss | null): boolean {
  return (
    loss !== null &&
    'event' in loss &&
    loss.event.action === 'expire' &&
    loss.event.reason === IDLE_REASON
  );
}

const ENDS_THE_ACQUISITION = new Set<LockEvent['action']>(['release', 'expire', 'force_release']);

/**
 * Whether `event` ends the acquisition `token` of `table`: it was released, expired or
 * force-released under that token, or a take-over (by an admin, or by the same user from
 * another tab) replaced it with a newer one.
 */
export function endsLock(event: LockEvent, table: string, token: string): boolean {
  if (event.table !== table || event.token === null) return false;
  if (ENDS_THE_ACQUISITION.has(event.action)) return event.token === token;
  return event.action === 'take_over' && BigInt(event.token) > BigInt(token);
}
