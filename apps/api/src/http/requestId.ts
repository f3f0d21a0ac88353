import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';

// An id from a proxy or client in front is kept (one id across their logs and ours) when it
// is plain text of sane length; anything else is replaced rather than logged.
const USABLE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Gives every request an id: in the `X-Request-Id` response header, its log lines and errors. */
export const assignRequestId: RequestHandler = (request, response, next) => {
  const offered = request.headers['x-request-id'];
  const id = typeof offered === 'string' && USABLE_ID.test(offered) ? offered : randomUUID();
  response.locals.requestId = id;
  response.setHeader('X-Request-Id', id);
  next();
};

export const requestIdOf = (response: Response): string => response.locals.requestId as string;
