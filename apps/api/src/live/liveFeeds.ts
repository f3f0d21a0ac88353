import type { Logger } from 'pino';
import { type CredentialChangeFeed, startCredentialChangeFeed } from './credentialChangeFeed';
import { startDatabaseNotifications } from './databaseNotifications';
import { type LockChangeFeed, startLockChangeFeed } from './lockChangeFeed';

export interface LiveFeeds {
  lockChanges: LockChangeFeed;
  credentialChanges: CredentialChangeFeed;
  /** Whether changes are being heard now (the LISTEN connection is up). */
  isListening(): boolean;
  close(): Promise<void>;
}

/** What the database announces, as this process hears it on its one LISTEN connection. */
export async function startLiveFeeds(databaseUrl: string, logger: Logger): Promise<LiveFeeds> {
  const notifications = await startDatabaseNotifications(databaseUrl, logger);
  return {
    lockChanges: await startLockChangeFeed(notifications),
    credentialChanges: await startCredentialChangeFeed(notifications),
    isListening: notifications.isListening,
    close: () => notifications.close(),
  };
}
