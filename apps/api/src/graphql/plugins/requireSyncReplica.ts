import type { ApolloServerPlugin } from '@apollo/server';
import type { Replication } from '../../ports/replication';
import { serviceUnavailableError } from '../../process/databaseUnreachable';
import { NO_SYNCHRONOUS_STANDBY } from '../../process/replicationGuard';

/** Mutations that only sign in or out: a session lost in a failover costs a new sign-in. */
const ALLOWED_WITHOUT_STANDBY = new Set(['login', 'logout']);

/**
 * With REQUIRE_SYNC_REPLICA, refuses every mutation but signing in and out while no synchronous
 * standby is attached: a change accepted then could be lost in a failover. Reads go on.
 */
export function requireSyncReplica(replication: Replication): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation !== 'mutation') return;
          const fields = operation.selectionSet.selections.map((selection) =>
            selection.kind === 'Field' ? selection.name.value : '',
          );
          if (fields.every((field) => ALLOWED_WITHOUT_STANDBY.has(field))) return;
          if (await replication.changesAllowed()) return;
          throw serviceUnavailableError(NO_SYNCHRONOUS_STANDBY);
        },
      };
    },
  };
}
