import type { LockEventRecord } from '@tablelock/lock';
import { type ChangeRequestRecord, readRequestByToken } from '@tablelock/master-data';
import type { ApiContext } from '../../context';
import type { SubscriptionResolvers } from '../generated/graphql';

/** The lock events that move a change request: its own steps, and a force release under it. */
const MOVES_A_REQUEST = new Set([
  'request_submitted',
  'request_approved',
  'request_rejected',
  'request_sent_back',
  'request_withdrawn',
  'request_scheduled',
  'request_moved',
  'request_applied',
  'request_failed',
  'force_release',
]);

async function* requestSteps(
  events: AsyncIterableIterator<LockEventRecord>,
  context: ApiContext,
): AsyncGenerator<ChangeRequestRecord> {
  for await (const event of events) {
    if (!MOVES_A_REQUEST.has(event.action) || event.token === null) continue;
    const request = await readRequestByToken(context.prisma, event.tableName, event.token);
    // A force release of a lock without a request moves none.
    if (request && (event.action !== 'force_release' || request.state === 'rejected')) {
      yield request;
    }
  }
}

// Credentials are the connection's, as for lockChanged; each subscriber executes its own
// events (not shared), since a request's token is shown to its author only.
export const changeRequestChanged: SubscriptionResolvers['changeRequestChanged'] = {
  subscribe: (_parent, { table }, context) =>
    requestSteps(context.lockChanges.subscribe(table), context),
  resolve: (request: ChangeRequestRecord) => request,
};
