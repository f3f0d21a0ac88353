import type { IncomingMessage } from 'node:http';
import { parse as parseCookies } from 'cookie';
import type { Credentials } from '../auth/authenticate';
import { SESSION_COOKIE } from '../auth/sessionCookie';

/**
 * What a WebSocket connection authenticates with: `{ authorization: "Bearer <key>" }` in its
 * connection parameters, or the session cookie of the upgrade request, which counts only from
 * the app's own origin (a page elsewhere cannot ride on a user's cookie).
 */
export function connectionCredentials(
  request: IncomingMessage,
  connectionParams: Readonly<Record<string, unknown>> | undefined,
): Credentials {
  const authorization = connectionParams?.authorization;
  const cookie = parseCookies(request.headers.cookie ?? '')[SESSION_COOKIE] ?? null;
  return {
    authorization: typeof authorization === 'string' ? authorization : null,
    sessionToken: isSameOrigin(request) ? cookie : null,
  };
}

/**
 * Clients other than browsers send no Origin. An opaque origin (`null`: sandboxed frames, files)
 * or one that is not a URL is another origin.
 */
function isSameOrigin(request: IncomingMessage): boolean {
  const { origin, host } = request.headers;
  if (origin === undefined) return true;
  return URL.canParse(origin) && new URL(origin).host === host;
}
