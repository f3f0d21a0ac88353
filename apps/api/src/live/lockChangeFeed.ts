import { EventEmitter, on } from 'node:events';
import { LOCK_CHANNEL, type LockEventRecord, parseAnnouncedEvent } from '@tablelock/lock';
import type { LockChangeFeed } from '../ports/lockChangeFeed';
import type { DatabaseNotifications } from './databaseNotifications';

/**
 * Listens on the Postgres channel that every lock change is announced on (by the transaction
 * that made it), and fans the changes out to this process's subscribers.
 */
export async function startLockChangeFeed(
  notifications: DatabaseNotifications,
): Promise<LockChangeFeed> {
  const changes = new EventEmitter();
  changes.setMaxListeners(0);
  await notifications.listen(LOCK_CHANNEL, (payload) => {
    // Every lock change of every process is announced here, mostly while nobody in this process
    // listens: its parsing (a JSON object and the states of its tables) would feed no one.
    if (changes.listenerCount('change') === 0 && changes.listenerCount('waiter') === 0) return;
    const event = parseAnnouncedEvent(payload);
    if (event) {
      changes.emit('change', event);
      changes.emit('waiter', event);
    }
  });
  notifications.onReconnected(() => changes.emit('waiter', null));
  let active = 0;

  // Not an async generator: a generator waiting for its next event cannot be ended until that
  // event comes, so a client that left would stay subscribed until the next change.
  function listen<T>(
    name: string,
    wanted: (value: T) => boolean,
    onEnd: () => void,
  ): AsyncIterableIterator<T> {
    const events = on(changes, name) as AsyncIterableIterator<[T]>;
    let open = true;
    const end = async (): Promise<IteratorReturnResult<undefined>> => {
      if (open) {
        open = false;
        onEnd();
        await events.return?.();
      }
      return { value: undefined, done: true };
    };
    return {
      async next() {
        while (open) {
          const next = await events.next();
          if (next.done) break;
          const [value] = next.value;
          if (wanted(value)) return { value, done: false };
        }
        return end();
      },
      return: end,
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  return {
    subscribe(table) {
      active++;
      return listen<LockEventRecord>(
        'change',
        (event) => !table || event.tableName === table,
        () => active--,
      );
    },
    changesForWaiter: () =>
      listen<LockEventRecord | null>(
        'waiter',
        () => true,
        () => {},
      ),
    activeSubscriptions: () => active,
    onMissed: (onMissed) => notifications.onReconnected(onMissed),
  };
}
