import type { Role } from '@tablelock/db';
import { DomainError } from '@tablelock/errors';
import { type Principal, roleAtLeast } from '@tablelock/identity';
import type { Request, Response } from 'express';
import type { ApiServices } from '../context';
import { authenticate } from './authenticate';
import { credentialsOf } from './credentialsOf';
import { SESSION_COOKIE, sessionCookieOptions } from './sessionCookie';

/**
 * The caller of a file route (export, import) by session cookie or API key, with at least
 * `role`; UNAUTHENTICATED or FORBIDDEN otherwise. A page of another site can make the browser
 * send such a request with the session cookie (a download, a form post): with a cookie, only
 * the app's own pages may.
 */
export async function authorizeFileRequest(
  services: ApiServices,
  request: Request,
  response: Response,
  role: Role,
): Promise<Principal> {
  const credentials = credentialsOf(request);
  const identity = await authenticate(services, credentials);
  if (identity.staleSessionCookie) {
    response.clearCookie(SESSION_COOKIE, sessionCookieOptions(request));
  }
  if (!identity.principal) {
    throw new DomainError(
      'UNAUTHENTICATED',
      identity.credentialError ?? 'Log in or send an API key.',
    );
  }
  const site = request.headers['sec-fetch-site'];
  if (credentials.authorization === null && (site === 'cross-site' || site === 'same-site')) {
    throw new DomainError('FORBIDDEN', 'Files are sent and downloaded from the app itself.');
  }
  if (!roleAtLeast(identity.principal.role, role)) {
    throw new DomainError('FORBIDDEN', `This needs the ${role} role.`);
  }
  return identity.principal;
}
