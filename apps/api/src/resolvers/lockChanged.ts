import type { LockEventRecord } from '@tablelock/lock';
import { authenticate } from '../auth/authenticate';
import { requireRole } from '../auth/requireRole';
import type { ApiContext } from '../context';
import type { SubscriptionResolvers } from '../generated/graphql';

export const lockChanged: SubscriptionResolvers['lockChanged'] = {
  subscribe: (_parent, { table }, context) => {
    requireRole(context, 'viewer');
    return whileAuthenticated(context, context.lockChanges.subscribe(table));
  },
  resolve: (event: LockEventRecord) => event,
};

/**
 * Passes events on only while the caller's credentials still hold: a subscription outlives the
 * request that started it, so a logout, an expired session or a revoked key ends it (checked
 * before each event is delivered).
 */
async function* whileAuthenticated(
  context: ApiContext,
  events: AsyncGenerator<LockEventRecord>,
): AsyncGenerator<LockEventRecord> {
  for await (const event of events) {
    const { principal } = await authenticate(context, context.credentials);
    if (!principal) return;
    yield event;
  }
}
