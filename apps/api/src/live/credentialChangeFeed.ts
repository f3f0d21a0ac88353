import { z } from 'zod';
import type { CredentialChange, CredentialChangeFeed } from '../ports/credentialChangeFeed';
import type { DatabaseNotifications } from './databaseNotifications';

/**
 * Where the database announces credential changes: triggers (migration
 * 20261122030000_credential_changes) on ended sessions, on users disabled, given a new password
 * or role, and on API keys revoked, in the transaction that makes the change.
 */
const CREDENTIALS_CHANNEL = 'tablelock_credentials';

const announcement = z.union([
  z
    .object({ userId: z.string() })
    .transform(({ userId }) => ({ kind: 'user' as const, id: userId })),
  z
    .object({ apiKeyId: z.string() })
    .transform(({ apiKeyId }) => ({ kind: 'apiKey' as const, id: apiKeyId })),
]);

/** A change as the triggers announce it, or undefined if the payload is not one. */
function parseAnnouncement(payload: string): CredentialChange | undefined {
  try {
    const parsed = announcement.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function startCredentialChangeFeed(
  notifications: DatabaseNotifications,
): Promise<CredentialChangeFeed> {
  const subscribers = new Set<(change: CredentialChange) => void>();
  const publish = (change: CredentialChange) => {
    for (const onChange of subscribers) onChange(change);
  };
  await notifications.listen(CREDENTIALS_CHANNEL, (payload) => {
    const change = parseAnnouncement(payload);
    if (change) publish(change);
  });
  return {
    subscribe(onChange) {
      subscribers.add(onChange);
      return () => subscribers.delete(onChange);
    },
    onMissed: (onMissed) => notifications.onReconnected(onMissed),
    isListening: notifications.isListening,
    catchUp: notifications.catchUp,
  };
}
