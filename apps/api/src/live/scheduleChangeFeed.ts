import type { ScheduleChanges } from '../ports/scheduleChanges';
import type { DatabaseNotifications } from './databaseNotifications';

/**
 * Where a change request scheduled or moved is announced (the trigger of migration
 * 20261206010000_scheduled_change_requests), so that every process's scheduler wakes for it.
 */
const SCHEDULE_CHANNEL = 'tablelock_schedule';

export async function startScheduleChangeFeed(
  notifications: DatabaseNotifications,
): Promise<ScheduleChanges> {
  const listeners = new Set<() => void>();
  const publish = () => {
    for (const onChanged of listeners) onChanged();
  };
  await notifications.listen(SCHEDULE_CHANNEL, publish);
  notifications.onReconnected(publish);
  return {
    onChanged(onChanged) {
      listeners.add(onChanged);
    },
  };
}
