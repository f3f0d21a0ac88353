import type { IdempotentRequest } from '@tablelock/idempotency';
import {
  type AcquireTableLocks,
  type LockGrant as LockGrantModel,
  waitForTableLocks,
} from '@tablelock/lock';
import { waiterAdmission } from '../../auth/waiterAdmission';
import type { ApiContext } from '../../context';
import { clientGone } from '../../http/clientGone';
import { onceForKey } from './runLockOperation';

/**
 * Takes the tables, waiting in line up to `waitSeconds`; each attempt runs once per
 * idempotency key. The wait ends at once if the client goes away.
 */
export async function waitInLine(
  context: ApiContext,
  idempotency: IdempotentRequest | null,
  request: AcquireTableLocks & { waitSeconds: number },
  revive: (stored: unknown) => LockGrantModel[],
): Promise<LockGrantModel[]> {
  // Opened before the first look, so that no change between a look and the wait goes unseen.
  const changes = context.lockChanges.changesForWaiter();
  try {
    const signal = clientGone(context.http);
    return await waitForTableLocks(
      context.prisma,
      {
        ...request,
        owner: context.lockQueue.owner,
        unfinishedLeaves: context.lockQueue.unfinishedLeaves,
        // A retry of the request (its idempotency key) takes up the place a lost answer left.
        ...(idempotency ? { joinKey: `${idempotency.principal} ${idempotency.key}` } : {}),
        changes,
        ...(context.principal ? { admission: waiterAdmission(context, context.principal) } : {}),
        ...(signal ? { signal } : {}),
      },
      onceForKey(context.prisma, idempotency, revive),
    );
  } finally {
    await changes.return?.();
  }
}
