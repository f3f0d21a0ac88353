import type { LockChanges, LockEventRecord } from '@tablelock/lock';

/** Lock changes as they commit, from any API instance on the same database. */
export interface LockChangeFeed {
  /** Changes from now on, of `table` only when given; ends as soon as the consumer stops. */
  subscribe(table?: string | null): AsyncIterableIterator<LockEventRecord>;
  /**
   * Changes from now on for someone waiting in line, with `null` whenever some may have gone
   * unheard (the LISTEN connection was back after a drop): they look again then.
   */
  changesForWaiter(): LockChanges & AsyncIterableIterator<LockEventRecord | null>;
  /** Subscriptions open now on this process. */
  activeSubscriptions(): number;
  /**
   * Calls `onMissed` whenever changes may have gone unannounced: the LISTEN connection dropped
   * and is back, and whatever committed in between reached no subscriber.
   */
  onMissed(onMissed: () => void): void;
}
