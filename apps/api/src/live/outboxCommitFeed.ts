import type { OutboxCommits } from '../ports/outboxCommits';
import type { DatabaseNotifications } from './databaseNotifications';

/**
 * Where a transaction that wrote outbox events announces its commit (migration
 * 20261129000000_outbox_announce), once per transaction whatever it wrote.
 */
const OUTBOX_CHANNEL = 'tablelock_outbox';

export async function startOutboxCommitFeed(
  notifications: DatabaseNotifications,
): Promise<OutboxCommits> {
  const listeners = new Set<() => void>();
  const publish = () => {
    for (const onCommit of listeners) onCommit();
  };
  await notifications.listen(OUTBOX_CHANNEL, publish);
  notifications.onReconnected(publish);
  return {
    onCommit(onCommit) {
      listeners.add(onCommit);
    },
  };
}
