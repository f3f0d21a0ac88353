import { type PrismaClient, readReplicationState } from '@tablelock/db';
import type { Logger } from 'pino';
import type { Replication } from '../ports/replication';

/** Why a change is refused while no synchronous standby is attached (SERVICE_UNAVAILABLE). */
export const NO_SYNCHRONOUS_STANDBY =
  'No synchronous standby is attached, so changes wait until one is. Reads go on.';

/**
 * With REQUIRE_SYNC_REPLICA, each change first asks the primary whether a synchronous standby
 * is attached and in sync (one read of pg_stat_replication), and is refused while none is: a
 * commit would then wait for one, or be lost in a failover. A standby lost after the question
 * makes the commit wait, never be acknowledged alone. Each change of the answer is logged once.
 */
export function guardReplication(
  prisma: PrismaClient,
  requireSyncReplica: boolean,
  logger: Logger,
): Replication {
  if (!requireSyncReplica) return { changesAllowed: async () => true };
  let attached = true;
  return {
    async changesAllowed() {
      let now: boolean;
      try {
        const state = await readReplicationState(prisma);
        now = state.synchronousStandbys.some((standby) => standby.inSync);
      } catch {
        // The database is away: the change fails on its own, answered SERVICE_UNAVAILABLE.
        return true;
      }
      if (now !== attached) {
        if (now) logger.info('a synchronous standby is attached: changes are accepted again');
        else logger.warn('no synchronous standby is attached: changes are refused');
      }
      attached = now;
      return now;
    },
  };
}
