import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler } from 'express';

/**
 * Notes when a request arrived, before anything else is done for it: whatever was committed
 * before then, the request may know of (a key revoked, say), so what the process heard since
 * is measured from it (see arrivalOf, credentialsOf).
 */
export const noteArrival: RequestHandler = (_request, response, next) => {
  response.locals.receivedAt = performance.now();
  next();
};

/** When `request` arrived (`performance.now()`); undefined if noteArrival did not see it. */
export const arrivalOf = (request: Request): number | undefined =>
  request.res?.locals.receivedAt as number | undefined;
