import type { ErrorRequestHandler } from 'express';
import { requestIdOf } from './requestId';

/**
 * Answers errors that reach Express itself (a body too large or not JSON, mostly) the way
 * GraphQL errors are answered, instead of Express's default HTML page with a stack trace.
 */
export const refuseBadBody: ErrorRequestHandler = (error, _request, response, next) => {
  if (response.headersSent) return next(error);
  const status = (error as { status?: number }).status ?? 500;
  const [message, code] =
    status === 413
      ? ['The request body is too large (at most 100 kB).', 'PAYLOAD_TOO_LARGE']
      : status < 500
        ? ['The request body is not valid JSON.', 'BAD_REQUEST']
        : ['Internal server error', 'INTERNAL_SERVER_ERROR'];
  response
    .status(status)
    .json({ errors: [{ message, extensions: { code, requestId: requestIdOf(response) } }] });
};
