import type { LockChangedSubscription } from './generated/graphql';
import { openLiveClient } from './liveClient';
import { lockChangedSubscription } from './lockOperations';
import type { TablelockApi } from './tablelockApi';

/** A lock change as `lockChanged` announces it. */
export type LockChange = LockChangedSubscription['lockChanged'];

export interface LockChangeHandlers {
  onChange(change: LockChange): void;
  /**
   * A connection began (the first, or one after a break): changes made before it, or while the
   * connection was down, were not announced to this watch.
   */
  onConnected(): void;
}

/**
 * Subscribes to `lockChanged` (of `table`, or of every table when null) over graphql-ws until
 * the returned function is called. The connection comes back by itself after any break, for as
 * long as it is wanted; a change can be missed before it connects and while it is down, which
 * `onConnected` says.
 */
export function watchLockChanges(
  api: TablelockApi,
  table: string | null,
  handlers: LockChangeHandlers,
): () => Promise<void> {
  const client = openLiveClient(api, () => handlers.onConnected());
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
    // graphql-ws rejects with the socket's ErrorEvent when the connection it was making failed:
    // then there is nothing to close, and the caller's work (a release) must not fail by it.
    await Promise.resolve(client.dispose()).catch(() => {});
  };
}
