import type { PrismaClient } from '@tablelock/db';
import type { LoginThrottle, Principal } from '@tablelock/identity';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Credentials } from './auth/authenticate';
import type { LockChangeFeed } from './live/lockChangeFeed';

/** The shared services of this API process. */
export interface ApiServices {
  prisma: PrismaClient;
  masterSchema: string;
  logger: Logger;
  loginThrottle: LoginThrottle;
  sessionTtlSeconds: number;
  lockChanges: LockChangeFeed;
}

/** What every resolver gets: the services, and who is calling. */
export interface ApiContext extends ApiServices {
  /** The authenticated caller, or null. */
  principal: Principal | null;
  /** Why credentials that were sent were not accepted (they are never silently ignored). */
  credentialError: string | null;
  /** The session token from the cookie, if any (for logout). */
  sessionToken: string | null;
  /** What the caller authenticated with, to check again on a long-lived subscription. */
  credentials: Credentials;
  /** The HTTP exchange; absent for subscriptions over WebSocket. */
  http?: { request: Request; response: Response };
}
