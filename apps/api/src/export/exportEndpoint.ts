import { DomainError } from '@tablelock/errors';
import { openRowExport, type RowExport } from '@tablelock/master-data';
import type { RequestHandler, Response } from 'express';
import { authorizeFileRequest } from '../auth/authorizeFileRequest';
import type { ApiServices } from '../context';
import { RETRY_AFTER_SECONDS } from '../databaseUnreachable';
import { refuseFileRequest } from '../refuseFileRequest';
import { requestIdOf } from '../requestId';
import { drained } from './drained';
import { parseExportRequest } from './exportRequest';
import type { RowFile, RowFileFormat } from './rowFile';

/**
 * Each export holds a pooled database connection for as long as its download lasts: a few at
 * a time leave the pool to everyone else.
 */
const MAX_EXPORTS_AT_ONCE = 2;

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
      const caller = (await authorizeFileRequest(services, request, response, 'viewer')).name;
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
      refuseFileRequest(services, response, error, logger);
    }
  };
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
}
