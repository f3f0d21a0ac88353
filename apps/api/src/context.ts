import type { PrismaClient } from '@tablelock/db';
import type { LoginThrottle, Principal, SignInRateLimit } from '@tablelock/identity';
import type { UnfinishedLeaves, WaiterLimit } from '@tablelock/lock';
import type { WriteGuard } from '@tablelock/master-data';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { ApiMetrics } from './ports/apiMetrics';
import type { CredentialCache } from './ports/credentialCache';
import type { CredentialChangeFeed } from './ports/credentialChangeFeed';
import type { DatabaseAvailability } from './ports/databaseAvailability';
import type { LockChangeFeed } from './ports/lockChangeFeed';
import type { OidcProvider } from './ports/oidcProvider';
import type { Replication } from './ports/replication';
import type { SortIndexes } from './ports/sortIndexes';
import type { WebhookSettings } from './ports/webhookSettings';

export interface LockQueueSettings {
  /** This process's mark on its waiters (see LiveFeeds.queueOwner). */
  owner: string;
  /** How long a person's turn holds the table for them. */
  reservationSeconds: number;
  /** Places in line per user or API key in this process (MAX_WAITERS_PER_PRINCIPAL). */
  waiters: WaiterLimit;
  /** Places in line this process could not give up yet (the sweeper finishes them). */
  unfinishedLeaves: UnfinishedLeaves;
}

/** The shared services of this API process. */
export interface ApiServices {
  prisma: PrismaClient;
  masterSchema: string;
  /** WRITE_GUARD_DEFAULT: the guard of a table whose policy sets none. */
  writeGuardDefault: WriteGuard;
  logger: Logger;
  loginThrottle: LoginThrottle;
  sessionTtlSeconds: number;
  /** False: only break-glass admins may log in with a password (PASSWORD_LOGIN). */
  passwordLogin: boolean;
  /** Single sign-on's provider, discovered at start; null when not set up. */
  oidc: OidcProvider | null;
  /** Bounds on anonymous requests to the single sign-on routes. */
  signInRateLimit: SignInRateLimit;
  lockChanges: LockChangeFeed;
  /** How this process keeps waiters in the lock queue. */
  lockQueue: LockQueueSettings;
  credentialChanges: CredentialChangeFeed;
  /** API keys and sessions this process resolved lately (see auth/credentialCache). */
  credentialCache: CredentialCache;
  metrics: ApiMetrics;
  databaseAvailability: DatabaseAvailability;
  /** Whether changes are accepted now (REQUIRE_SYNC_REPLICA). */
  replication: Replication;
  sortIndexes: SortIndexes;
  /** The shortest idle limit admins may set (IDLE_LIMIT_MIN_SECONDS). */
  minIdleLimitSeconds: number;
  /** The shortest lease a caller may ask for (LEASE_MIN_SECONDS). */
  minLeaseSeconds: number;
  /** HISTORY_RETENTION_DAYS: how far back `rows(asOf:)` can rebuild rows; null: for ever. */
  historyRetentionDays: number | null;
  webhooks: WebhookSettings;
}

/** What every resolver gets: the services, and who is calling. */
export interface ApiContext extends ApiServices {
  /** The authenticated caller, or null. */
  principal: Principal | null;
  /** Why credentials that were sent were not accepted (they are never silently ignored). */
  credentialError: string | null;
  /** The session token from the cookie, if any (for logout). */
  sessionToken: string | null;
  /** The session cookie names no live session: the response clears it. */
  staleSessionCookie: boolean;
  /** The HTTP request's id (X-Request-Id): in its log lines and in the errors it answers. */
  requestId?: string;
  /** The HTTP exchange; absent for subscriptions over WebSocket. */
  http?: { request: Request; response: Response };
}
