import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { CredentialChangeFeed } from '../ports/credentialChangeFeed';
import type { LockChangeFeed } from '../ports/lockChangeFeed';
import type { OutboxCommits } from '../ports/outboxCommits';
import type { ScheduleChanges } from '../ports/scheduleChanges';
import { startCredentialChangeFeed } from './credentialChangeFeed';
import { startDatabaseNotifications } from './databaseNotifications';
import { startLockChangeFeed } from './lockChangeFeed';
import { startOutboxCommitFeed } from './outboxCommitFeed';
import { startScheduleChangeFeed } from './scheduleChangeFeed';

export interface LiveFeeds {
  lockChanges: LockChangeFeed;
  /**
   * This process's mark on the waiters it keeps in the lock queue: the application_name of its
   * LISTEN connection, so that its waiters count exactly while it is connected.
   */
  queueOwner: string;
  credentialChanges: CredentialChangeFeed;
  outboxCommits: OutboxCommits;
  /** Change requests scheduled or moved: the scheduler's wake-up. */
  scheduleChanges: ScheduleChanges;
  /** Whether changes are being heard now (the LISTEN connection is up). */
  isListening(): boolean;
  /** When (epoch ms) the LISTEN connection last came back after it dropped. */
  reconnectedAt(): number | undefined;
  close(): Promise<void>;
}

/** What the database announces, as this process hears it on its one LISTEN connection. */
export async function startLiveFeeds(databaseUrl: string, logger: Logger): Promise<LiveFeeds> {
  const queueOwner = `tablelock ${randomUUID()}`;
  const notifications = await startDatabaseNotifications(databaseUrl, logger, queueOwner);
  return {
    lockChanges: await startLockChangeFeed(notifications),
    queueOwner,
    credentialChanges: await startCredentialChangeFeed(notifications),
    outboxCommits: await startOutboxCommitFeed(notifications),
    scheduleChanges: await startScheduleChangeFeed(notifications),
    isListening: notifications.isListening,
    reconnectedAt: notifications.reconnectedAt,
    close: () => notifications.close(),
  };
}
