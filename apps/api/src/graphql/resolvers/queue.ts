import { type QueuePlace, queueForTable } from '@tablelock/lock';
import { editorRights } from '../../auth/editorRights';
import { waiterAdmission } from '../../auth/waiterAdmission';
import { endingOnReturn } from '../../live/endingOnReturn';
import type { SubscriptionResolvers } from '../generated/graphql';
import { callerOf } from './callerOf';

export const waitForTable: SubscriptionResolvers['waitForTable'] = {
  subscribe: (_parent, { table }, context) => {
    const caller = callerOf(context);
    // Opened before the first look, so that no change between a look and the wait goes unseen.
    const changes = context.lockChanges.changesForWaiter();
    return endingOnReturn(
      (signal) =>
        queueForTable(context.prisma, {
          tableName: table,
          editor: caller.name,
          rights: editorRights(caller),
          admission: waiterAdmission(context, caller),
          owner: context.lockQueue.owner,
          unfinishedLeaves: context.lockQueue.unfinishedLeaves,
          reservationSeconds: context.lockQueue.reservationSeconds,
          changes,
          signal,
        }),
      async () => changes.return?.(),
    );
  },
  resolve: (place: QueuePlace) => place,
};
