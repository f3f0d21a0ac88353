import type { Queryable } from '@tablelock/db';
import type { LockEventRecord } from '../reads/readLockEvents';
import { nearestWaiterAhead } from './lockQueue';

/**
 * Which lock change should wake waiter `waiterId` to try again. With someone before it in line
 * who goes first for it, only that one leaving (`dequeued`) can let it through, so a release
 * wakes the head of the line alone, not everyone in it; with nobody before it, any change that
 * `frees` what was in its way. That one being frozen wakes it too: a frozen waiter goes first
 * for nobody.
 */
export async function wakesWaiter(
  db: Queryable,
  waiterId: string,
  frees: (event: LockEventRecord) => boolean,
): Promise<(event: LockEventRecord) => boolean> {
  const ahead = await nearestWaiterAhead(db, waiterId);
  if (!ahead) return frees;
  return (event) =>
    ahead.tables.includes(event.tableName) &&
    ((event.action === 'dequeued' && event.editor === ahead.editor) || event.action === 'freeze');
}
