import type { OutboxAnnouncement, OutboxCommits } from '../ports/outboxCommits';
import type { DatabaseNotifications } from './databaseNotifications';

/**
 * Where a transaction that wrote outbox events announces its commit, once per transaction,
 * and a change of endpoints is announced (migration 20261129000000_outbox_announce).
 */
const OUTBOX_CHANNEL = 'tablelock_outbox';

export async function startOutboxCommitFeed(
  notifications: DatabaseNotifications,
): Promise<OutboxCommits> {
  const listeners = new Set<(announcement: OutboxAnnouncement) => void>();
  const publish = (announcement: OutboxAnnouncement) => {
    for (const onAnnounced of listeners) onAnnounced(announcement);
  };
  await notifications.listen(OUTBOX_CHANNEL, (payload) =>
    publish(payload === 'events' ? 'events' : 'endpoints'),
  );
  notifications.onReconnected(() => publish('endpoints'));
  return {
    onAnnounced(onAnnounced) {
      listeners.add(onAnnounced);
    },
  };
}
