import { findApiKeyPrincipal, findSessionPrincipal, type Principal } from '@tablelock/identity';
import type { Request } from 'express';
import type { ApiServices } from '../context';
import { SESSION_COOKIE } from './sessionCookie';

export interface RequestIdentity {
  principal: Principal | null;
  credentialError: string | null;
  sessionToken: string | null;
}

/**
 * Who sent the request: an API key (`Authorization: Bearer <key>`) or a session cookie. Bad
 * credentials are reported, never replaced by weaker ones (a bad key does not fall back to the
 * cookie).
 */
export async function authenticateRequest(
  services: ApiServices,
  request: Request,
): Promise<RequestIdentity> {
  const sessionToken: string | null = request.cookies?.[SESSION_COOKIE] ?? null;
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
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
    };
  }
  if (sessionToken) {
    const principal = await findSessionPrincipal(services.prisma, sessionToken);
    return {
      principal,
      credentialError: principal ? null : 'The session has ended; log in again.',
      sessionToken,
    };
  }
  return { principal: null, credentialError: null, sessionToken: null };
}
