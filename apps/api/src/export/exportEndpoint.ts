import { DomainError } from '@tablelock/errors';
import { roleAtLeast } from '@tablelock/identity';
import { openRowExport, type RowExport } from '@tablelock/master-data';
import type { Request, RequestHandler, Response } from 'express';
import { authenticate } from '../auth/authenticate';
import { credentialsOf } from '../auth/credentialsOf';
import { SESSION_COOKIE, sessionCookieOptions } from '../auth/sessionCookie';
import type { ApiServices } from '../context';
import { isDatabaseUnreachable, RETRY_AFTER_SECONDS } from '../databaseUnreachable';
import { sendErrorAnswer } from '../errorAnswer';
import { requestIdOf } from '../requestId';
import { drained } from './drained';
import { parseExportRequest } from './exportRequest';
import type { RowFile, RowFileFormat } from './rowFile';

/**
 * Each export holds a pooled database connection for as long as its download lasts: a few at
 * a time leave the pool to everyone else.
 */
const MAX_EXPORTS_AT_ONCE = 2;

const HTTP_STATUS: Record<string, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  TABLE_NOT_FOUND: 404,
  TOO_MANY_REQUESTS: 429,
};

/**
 * `GET /export/<table>.csv|.xlsx?sort=…&filter=…`: every row of a master table in that sort and
 * filter, streamed as it is read, for any signed-in user or API key (viewers too). A bad
 * request is refused with a coded JSON error before the file starts.
 */
export function exportEndpoint(services: ApiServices): RequestHandler {
  let running = 0;
  return async (request, response) => {
    const logger = services.logger.child({ requestId: requestIdOf(response) });
    try {
      const caller = await authorize(services, request, response);
      const { table, format, view } = parseExportRequest(request);
      if (running >= MAX_EXPORTS_AT_ONCE) {
        throw new DomainError(
          'TOO_MANY_REQUESTS',
          'Other exports are running; try again shortly.',
          {
            retryAfterSeconds: RETRY_AFTER_SECONDS,
          },
        );
      }
      running++;
      try {
        const startedAt = performance.now();
        const rowExport = await openRowExport(services.prisma, services.masterSchema, table, view);
        if (request.method === 'HEAD') {
          sendHeaders(response, rowExport, format);
          response.end();
          return;
        }
        const rows = await sendFile(rowExport, format, response);
        const ms = Math.round(performance.now() - startedAt);
        logger.info({ table, format: format.extension, rows, ms, caller }, 'export sent');
      } finally {
        running--;
      }
    } catch (error) {
      refuse(services, response, error, logger);
    }
  };
}

/** The caller's name; UNAUTHENTICATED or FORBIDDEN otherwise. */
async function authorize(services: ApiServices, request: Request, response: Response) {
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
  // A page of another site can make the browser fetch this address with the session cookie:
  // it could not read the file, but would make the server read the whole table.
  const site = request.headers['sec-fetch-site'];
  if (credentials.authorization === null && (site === 'cross-site' || site === 'same-site')) {
    throw new DomainError('FORBIDDEN', 'Exports are downloaded from the app itself.');
  }
  if (!roleAtLeast(identity.principal.role, 'viewer')) {
    throw new DomainError('FORBIDDEN', 'Exporting needs the viewer role.');
  }
  return identity.principal.name;
}

/**
 * Writes the file as the rows are read. Nothing is sent before the first rows are in hand, so
 * a filter value the database refuses is still answered as an error; after that, a failure can
 * only cut the download off.
 */
async function sendFile(
  rowExport: RowExport,
  format: RowFileFormat,
  response: Response,
): Promise<number> {
  let file: RowFile | undefined;
  const open = () => {
    if (!file) {
      sendHeaders(response, rowExport, format);
      file = format.start(response, rowExport.table);
    }
    return file;
  };
  let rows = 0;
  await rowExport.forEachBatch(async (batch) => {
    open().write(batch);
    rows += batch.length;
    await drained(response);
  });
  await open().end();
  return rows;
}

function sendHeaders(response: Response, rowExport: RowExport, format: RowFileFormat) {
  response.attachment(`${rowExport.table.name}.${format.extension}`);
  response.setHeader('Content-Type', format.contentType);
  response.setHeader('Cache-Control', 'no-store');
}

function refuse(
  services: ApiServices,
  response: Response,
  error: unknown,
  logger: ApiServices['logger'],
) {
  if (response.headersSent) {
    if (!response.destroyed) logger.error({ err: error }, 'export failed after it started');
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
  logger.error({ err: error }, 'export failed');
  sendErrorAnswer(response, 500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
}
