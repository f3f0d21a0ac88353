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
      return (
        change.token !== null && change.token !== undefined && BigInt(change.token) > BigInt(token)
      );
    default:
      return false;
  }
}

/** The LOCK_LOST error for a change that ended the caller's lock, worded as the API words it. */
export function lostLockError(change: LockChange): TablelockError {
  const because = change.reason ? ` (reason: ${change.reason})` : '';
  const why = {
    expire: `your lock on ${change.table} expired: its lease ran out without renewal`,
    force_release: `${change.actor} force-released your lock on ${change.table}${because}`,
    take_over: `${change.actor} took over ${change.table}${because}`,
  }[change.action as string];
  return new TablelockError(
    'LOCK_LOST',
    `You no longer hold the lock: ${why ?? `your lock on ${change.table} was released by ${change.actor}`}.`,
    {
      extensions: {
        code: 'LOCK_LOST',
        table: change.table,
        action: change.action,
        actor: change.actor,
        reason: change.reason,
      },
    },
  );
}
