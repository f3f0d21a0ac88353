import type { LockEventRecord } from '@tablelock/lock';
import { requireRole } from '../auth/requireRole';
import type { SubscriptionResolvers } from '../generated/graphql';

export const lockChanged: SubscriptionResolvers['lockChanged'] = {
  subscribe: (_parent, { table }, context) => {
    requireRole(context, 'viewer');
    return context.lockChanges.subscribe(table);
  },
  resolve: (event: LockEventRecord) => event,
};
