import { graphqlRequest } from '../../api/graphqlRequest';
import { graphql } from '../../generated';
import type { LockEvent } from '../../live/liveContext';
import { endsLock } from './lockLoss';

const lockEndQuery = graphql(`
  query LockEnd($table: String!) {
    lockEvents(
      filter: { table: $table, actions: [release, expire, force_release, take_over] }
      limit: 20
    ) {
      events {
        ...LockEventFields
      }
    }
  }
`);

/**
 * The recorded event that ended acquisition `token` of `table`, for when the page learnt of the
 * end without being told live (a refused save, a poll while offline). Null if it is not among
 * the table's latest lock changes.
 */
export async function findLockEnd(table: string, token: string): Promise<LockEvent | null> {
  const { lockEvents } = await graphqlRequest(lockEndQuery, { table });
  // Newest first: the earliest match is the one that ended it (later take-overs only follow).
  return lockEvents.events.findLast((event) => endsLock(event, table, token)) ?? null;
}
