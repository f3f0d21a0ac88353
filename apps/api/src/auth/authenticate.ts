import {
  findApiKeyPrincipal,
  findSessionPrincipal,
  type Principal,
  sessionTimeLeft,
} from '@tablelock/identity';
import type { ApiServices } from '../context';

export interface Credentials {
  /** The `tablelock_session` cookie's value. */
  sessionToken: string | null;
  /** An `Authorization` header value (`Bearer <key>`). */
  authorization: string | null;
  /**
   * When the request arrived (`performance.now()`): a credential change committed before it
   * must be heard before a remembered principal is served. Absent: when it is looked up.
   */
  receivedAt?: number;
}

export interface RequestIdentity {
  principal: Principal | null;
  credentialError: string | null;
  sessionToken: string | null;
  /** The session cookie names no live session (ended, expired, or never one). */
  staleSessionCookie: boolean;
}

/**
 * Who sent a request: an API key (`Authorization: Bearer <key>`) or a session cookie. Bad
 * credentials are reported, never replaced by weaker ones (a bad key does not fall back to the
 * cookie). Resolved through this process's credential cache unless `fresh` (a check that must
 * ask the database).
 */
export async function authenticate(
  services: ApiServices,
  { sessionToken, authorization, receivedAt }: Credentials,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<RequestIdentity> {
  const { prisma, credentialCache } = services;
  if (authorization !== null) {
    const [scheme, secret] = authorization.split(' ');
    const principal =
      scheme?.toLowerCase() === 'bearer' && secret
        ? fresh
          ? await findApiKeyPrincipal(prisma, secret)
          : await credentialCache.principalOf(
              'apiKey',
              secret,
              async () => {
                const found = await findApiKeyPrincipal(prisma, secret);
                return found && { principal: found };
              },
              receivedAt,
            )
        : null;
    return {
      principal,
      credentialError: principal
        ? null
        : 'The API key is not valid (unknown, malformed or revoked).',
      sessionToken,
      staleSessionCookie: false,
    };
  }
  if (sessionToken) {
    const principal = fresh
      ? await findSessionPrincipal(prisma, sessionToken)
      : await credentialCache.principalOf(
          'session',
          sessionToken,
          async () => {
            const found = await findSessionPrincipal(prisma, sessionToken);
            if (!found) return null;
            // Remembered no longer than the session lasts.
            return {
              principal: found,
              validForMs: (await sessionTimeLeft(prisma, sessionToken)) ?? 0,
            };
          },
          receivedAt,
        );
    return {
      principal,
      credentialError: principal ? null : 'The session has ended; log in again.',
      sessionToken,
      staleSessionCookie: !principal,
    };
  }
  return { principal: null, credentialError: null, sessionToken: null, staleSessionCookie: false };
}
