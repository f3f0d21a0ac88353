import { TablelockError } from './TablelockError';
import type { LockChange } from './watchLockChanges';

/** Whether `change` ends acquisition `token` of its table. */
export function endsAcquisition(change: LockChange, token: string): boolean {
  switch (change.action) {
    case 'release':
    case 'expire':
    case 'force_release':
      return change.token === token;
    // A take-over is a newer acquisition that displaces the current one.
    case 'take_over':
      return change.token != null && BigInt(change.token) > BigInt(token);
    default:
      return false;
  }
}

/** The LOCK_LOST error for a change that ended the caller's lock, worded as the API words it. */
export function lostLockError(change: LockChange): TablelockError {
  return new TablelockError('LOCK_LOST', `You no longer hold the lock: ${howLost(change)}.`, {
    extensions: {
      code: 'LOCK_LOST',
      table: change.table,
      action: change.action,
      actor: change.actor,
      reason: change.reason,
    },
  });
}

function howLost({ action, table, actor, reason }: LockChange): string {
  const because = reason ? ` (reason: ${reason})` : '';
  switch (action) {
    case 'expire':
      return `your lock on ${table} expired: its lease ran out without renewal`;
    case 'force_release':
      return `${actor} force-released your lock on ${table}${because}`;
    case 'take_over':
      return `${actor} took over ${table}${because}`;
    default:
      return `your lock on ${table} was released by ${actor}`;
  }
}
