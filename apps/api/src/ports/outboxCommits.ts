/** Commits that wrote outbox events, made by any process on the same database. */
export interface OutboxCommits {
  /**
   * Calls `onCommit` after each such commit, and whenever announcements may have gone unheard
   * (the LISTEN connection was back after a drop).
   */
  onCommit(onCommit: () => void): void;
}
