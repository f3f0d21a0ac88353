import { isOutcomeUnknown } from '@tablelock/db';
import { DomainError } from '@tablelock/errors';
import type { Response } from 'express';
import type { ApiServices } from '../context';
import { isDatabaseUnreachable, RETRY_AFTER_SECONDS } from '../process/databaseUnreachable';
import { sendErrorAnswer } from './errorAnswer';

const HTTP_STATUS: Record<string, number> = {
  BAD_USER_INPUT: 400,
  IMPORT_BAD_FILE: 400,
  IMPORT_NO_PRIMARY_KEY: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  TABLE_NOT_FOUND: 404,
  LOCK_LOST: 409,
  IMPORT_HAS_ERRORS: 409,
  IMPORT_ROWS_CHANGED: 409,
  IMPORT_REJECTED: 409,
  APPROVAL_REQUIRED: 409,
  IMPORT_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
};

const OUTCOME_UNKNOWN_MESSAGE =
  'The database may not have kept this change. Send it again: what was kept shows as unchanged.';

/**
 * Answers a failed file request (export, import) with a coded JSON error, as GraphQL would:
 * the caller's mistakes with their code and status, an unreachable database or a commit that
 * may not be kept as 503, anything else as an opaque 500 (logged). A download already under way can only be cut off.
 */
export function refuseFileRequest(
  services: ApiServices,
  response: Response,
  error: unknown,
  logger: ApiServices['logger'],
): void {
  if (response.headersSent) {
    if (!response.destroyed) logger.error({ err: error }, 'file request failed after it started');
    response.destroy();
    return;
  }
  const status = error instanceof DomainError ? HTTP_STATUS[error.code] : undefined;
  if (error instanceof DomainError && status) {
    const retryAfter = error.details.retryAfterSeconds;
    if (retryAfter !== undefined) response.setHeader('Retry-After', String(retryAfter));
    sendErrorAnswer(response, status, error.code, error.message, error.details);
    return;
  }
  // Before the outage check: a commit whose connection broke wraps that error.
  if (isOutcomeUnknown(error)) {
    logger.warn({ err: error }, 'file request: outcome unknown');
    response.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    sendErrorAnswer(response, 503, 'OUTCOME_UNKNOWN', OUTCOME_UNKNOWN_MESSAGE, {
      retryAfterSeconds: RETRY_AFTER_SECONDS,
    });
    return;
  }
  if (isDatabaseUnreachable(error)) {
    services.databaseAvailability.reportUnreachable(error);
    response.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    sendErrorAnswer(
      response,
      503,
      'SERVICE_UNAVAILABLE',
      'The database cannot be reached just now; try again shortly.',
      { retryAfterSeconds: RETRY_AFTER_SECONDS },
    );
    return;
  }
  logger.error({ err: error }, 'file request failed');
  sendErrorAnswer(response, 500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
}
