import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { ApiMetrics } from './apiMetrics';

const sameSecret = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** `GET /metrics` in Prometheus text format; with a token, only for `Authorization: Bearer <token>`. */
export function metricsEndpoint(metrics: ApiMetrics, token?: string): RequestHandler {
  return async (request, response) => {
    if (token && !sameSecret(request.headers.authorization ?? '', `Bearer ${token}`)) {
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
    response.type(metrics.contentType).send(await metrics.render());
  };
}

/** Counts every HTTP response by status code. */
export function countHttpResponses(metrics: ApiMetrics): RequestHandler {
  return (_request, response, next) => {
    response.on('finish', () => metrics.recordHttpResponse(response.statusCode));
    next();
  };
}
