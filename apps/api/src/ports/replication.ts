/** What this process asks of the database's synchronous standbys (see process/replicationGuard). */
export interface Replication {
  /**
   * Whether changes may be made now: always, unless REQUIRE_SYNC_REPLICA is set and no
   * synchronous standby is attached and in sync.
   */
  changesAllowed(): Promise<boolean>;
}
