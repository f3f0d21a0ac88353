/**
 * What the database announces for webhook delivery, made by any process on the same database:
 * `events` when a commit wrote outbox events, `endpoints` when an endpoint was created, changed
 * or enabled again.
 */
export type OutboxAnnouncement = 'events' | 'endpoints';

export interface OutboxCommits {
  /**
   * Calls `onAnnounced` for each announcement; whenever some may have gone unheard (the LISTEN
   * connection was back after a drop), with `endpoints`, so that the listener looks afresh.
   */
  onAnnounced(onAnnounced: (announcement: OutboxAnnouncement) => void): void;
}
