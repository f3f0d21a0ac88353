import type { RequestHandler } from 'express';

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** The host name of a Host header, lower-cased and without its port. */
function hostNameOf(host: string): string {
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return (name ?? '').toLowerCase();
}

/**
 * Whether a request's Host header names this app. A page of another site whose name an attacker
 * re-points at this machine (DNS rebinding) reaches the app with the attacker's host name: it
 * is refused, so that it can neither log in (with the public demo password) nor read answers.
 */
export function createHostCheck(allowedHosts: string[]): (host: string | undefined) => boolean {
  const allowed = new Set([...LOCAL_HOSTS, ...allowedHosts.map(hostNameOf)]);
  return (host) => host !== undefined && allowed.has(hostNameOf(host));
}

/** Refuses requests addressed to a host that is not allowed (403, a coded GraphQL error). */
export function refuseUnknownHosts(
  isAllowedHost: (host: string | undefined) => boolean,
): RequestHandler {
  return (request, response, next) => {
    if (isAllowedHost(request.headers.host)) return next();
    response.status(403).json({
      errors: [
        {
          message: `This server does not answer to the host ${JSON.stringify(request.headers.host ?? '')}; add it to ALLOWED_HOSTS or PUBLIC_URL.`,
          extensions: { code: 'FORBIDDEN' },
        },
      ],
    });
  };
}
