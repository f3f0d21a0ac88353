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
  { sessionToken, authorization }: Credentials,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<RequestIdentity> {
  const { prisma, credentialCache } = services;
  if (authorization !== null) {
    const [scheme, secret] = authorization.split(' ');
    const resolve = async () => {
      const principal = await findApiKeyPrincipal(prisma, secret ?? '');
      return principal && { principal };
    };
    const principal =
      scheme?.toLowerCase() === 'bearer' && secret
        ? fresh
          ? ((await resolve())?.principal ?? null)
          : await credentialCache.principalOf('apiKey', secret, resolve)
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
    const resolve = async () => {
      const principal = await findSessionPrincipal(prisma, sessionToken);
      // Remembered no longer than the session lasts.
      return (
        principal && { principal, validForMs: (await sessionTimeLeft(prisma, sessionToken)) ?? 0 }
      );
    };
    const principal = fresh
      ? ((await resolve())?.principal ?? null)
      : await credentialCache.principalOf('session', sessionToken, resolve);
    return {
      principal,
      credentialError: principal ? null : 'The session has ended; log in again.',
      sessionToken,
      staleSessionCookie: !principal,
    };
  }
  return { principal: null, credentialError: null, sessionToken: null, staleSessionCookie: false };
}
