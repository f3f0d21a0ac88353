import type { LockEventRecord } from '@tablelock/lock';
import type { SubscriptionResolvers } from '../generated/graphql';

// The caller's credentials are the connection's: checked when it opened, and it is closed when
// they end (see live/liveConnections.ts), so there is nothing to check per event here.
export const lockChanged: SubscriptionResolvers['lockChanged'] = {
  subscribe: (_parent, { table }, context) => {
    return context.lockChanges.subscribe(table);
  },
  resolve: (event: LockEventRecord) => event,
};
