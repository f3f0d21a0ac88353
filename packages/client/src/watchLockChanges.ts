import type { LockChangedSubscription } from './generated/graphql';
import { openLiveClient } from './liveClient';
import { lockChangedSubscription } from './lockOperations';
import type { TablelockApi } from './tablelockApi';

/** A lock change as `lockChanged` announces it. */
export type LockChange = LockChangedSubscription['lockChanged'];

export interface LockChangeHandlers {
  onChange(change: LockChange): void;
  /** The connection came back after a break: changes made meanwhile were not announced. */
  onReconnected(): void;
}

/**
 * Subscribes to `lockChanged` (of `table`, or of every table when null) over graphql-ws until
 * the returned function is called. The connection comes back by itself after any break, for as
 * long as it is wanted; a change can be missed while it is down, which `onReconnected` says.
 */
export function watchLockChanges(
  api: TablelockApi,
  table: string | null,
  handlers: LockChangeHandlers,
): () => Promise<void> {
  const client = openLiveClient(api, (wasRetry) => {
    if (wasRetry) handlers.onReconnected();
  });
  client.subscribe<LockChangedSubscription>(
    { query: lockChangedSubscription.toString(), variables: { table } },
    {
      next: (result) => {
        if (result.data) handlers.onChange(result.data.lockChanged);
      },
      // A refused subscription: the lease renewals still find out whether the lock was lost.
      error: () => {},
      complete: () => {},
    },
  );
  return async () => {
    await client.dispose();
  };
}
