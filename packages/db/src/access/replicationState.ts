import type { Queryable } from './prismaClient';

/** A synchronous standby attached to the primary. */
export interface SynchronousStandby {
  /** Its application_name, as synchronous_standby_names lists it. */
  name: string;
  /** Streaming (caught up), not still catching up. */
  inSync: boolean;
}

/** What the server the app writes to says about itself and its synchronous standbys. */
export interface ReplicationState {
  /** Not a standby: it takes writes. */
  primary: boolean;
  /** The timeline it writes; null on a standby. */
  timeline: number | null;
  /** The standbys whose confirmation a commit may wait for (sync or quorum), by name. */
  synchronousStandbys: SynchronousStandby[];
}

/**
 * Reads the replication state of the server behind `db`. The state of other sessions' WAL
 * senders needs the pg_monitor role (or a superuser); without it no standby shows.
 */
export async function readReplicationState(db: Queryable): Promise<ReplicationState> {
  const [server] = await db.$queryRaw<{ primary: boolean; timeline: number | null }[]>`
    SELECT NOT pg_is_in_recovery() AS "primary",
      CASE WHEN pg_is_in_recovery() THEN NULL
        ELSE ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int
      END AS timeline`;
  const standbys = await db.$queryRaw<SynchronousStandby[]>`
    SELECT application_name AS name, state = 'streaming' AS "inSync"
    FROM pg_stat_replication WHERE sync_state IN ('sync', 'quorum')
    ORDER BY application_name`;
  return {
    primary: server?.primary ?? false,
    timeline: server?.timeline ?? null,
    synchronousStandbys: standbys,
  };
}
