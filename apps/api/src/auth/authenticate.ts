import { findApiKeyPrincipal, findSessionPrincipal, type Principal } from '@tablelock/identity';
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
 * cookie).
 */
export async function authenticate(
  services: ApiServices,
  { sessionToken, authorization }: Credentials,
): Promise<RequestIdentity> {
  if (authorization !== null) {
    const [scheme, secret] = authorization.split(' ');
    const principal =
      scheme?.toLowerCase() === 'bearer' && secret
        ? await findApiKeyPrincipal(services.prisma, secret)
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
    const principal = await findSessionPrincipal(services.prisma, sessionToken);
    return {
      principal,
      credentialError: principal ? null : 'The session has ended; log in again.',
      sessionToken,
      staleSessionCookie: !principal,
    };
  }
  return { principal: null, credentialError: null, sessionToken: null, staleSessionCookie: false };
}
