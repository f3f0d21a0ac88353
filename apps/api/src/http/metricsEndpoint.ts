import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { ApiMetrics } from '../ports/apiMetrics';
import { refuseUnknownHosts } from './hostAllowList';

// Digests are of equal length whatever was sent: characters and bytes differ in number for
// non-ASCII text, and timingSafeEqual throws on buffers of different lengths.
const digest = (text: string) => createHash('sha256').update(text).digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/**
 * Whether a request is of /metrics' audience. With a token, only `Authorization: Bearer
 * <token>`, at any Host (scrapers use the bare address). Without one, only at an allowed Host,
 * like the app: a page of another site re-pointed at this machine (DNS rebinding) cannot read it.
 */
export function createMetricsAudienceCheck(
  token: string | undefined,
  isAllowedHost: (host: string | undefined) => boolean,
): (request: Request) => boolean {
  if (!token) return (request) => isAllowedHost(request.headers.host);
  return (request) => sameSecret(request.headers.authorization ?? '', `Bearer ${token}`);
}

/** `GET /metrics` in Prometheus text format, for its audience only (createMetricsAudienceCheck). */
export function metricsEndpoint(
  metrics: ApiMetrics,
  token: string | undefined,
  isAllowedHost: (host: string | undefined) => boolean,
): RequestHandler[] {
  const render: RequestHandler = async (_request, response) => {
    response.type(metrics.contentType).send(await metrics.render());
  };
  if (!token) return [refuseUnknownHosts(isAllowedHost), render];
  const isAudience = createMetricsAudienceCheck(token, isAllowedHost);
  const checkToken: RequestHandler = (request, response, next) => {
    if (!isAudience(request)) {
      response
        .status(401)
        .set('WWW-Authenticate', 'Bearer')
        .json({
          errors: [
            {
              message: 'Send METRICS_TOKEN as a bearer token.',
              extensions: { code: 'UNAUTHENTICATED' },
            },
          ],
        });
      return;
    }
    next();
  };
  return [checkToken, render];
}

/** Counts every HTTP response by status code. */
export function countHttpResponses(metrics: ApiMetrics): RequestHandler {
  return (_request, response, next) => {
    response.on('finish', () => metrics.recordHttpResponse(response.statusCode));
    next();
  };
}
