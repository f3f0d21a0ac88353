import { openRowExport, type RowExport } from '@tablelock/master-data';
import type { RequestHandler, Response } from 'express';
import { authorizeFileRequest } from '../../auth/authorizeFileRequest';
import type { ApiServices } from '../../context';
import { refuseFileRequest } from '../refuseFileRequest';
import { requestIdOf } from '../requestId';
import { drained, ReaderStalled } from './drained';
import { exportFileName } from './exportFileName';
import type { ExportLimits } from './exportLimits';
import { parseExportRequest } from './exportRequest';
import { createExportSlots } from './exportSlots';
import type { RowFile, RowFileFormat } from './rowFile';

/**
 * `GET /export/<table>.csv|.xlsx?sort=…&filter=…`: every row of a master table in that sort and
 * filter, streamed as it is read, for any signed-in user or API key (viewers too). A bad
 * request is refused with a coded JSON error before the file starts. Each export holds a pooled
 * database connection for as long as its download lasts: `limits` bound how many run, and how
 * long a slow reader may keep one.
 */
export function exportEndpoint(services: ApiServices, limits: ExportLimits): RequestHandler {
  const slots = createExportSlots(limits);
  return async (request, response) => {
    const logger = services.logger.child({ requestId: requestIdOf(response) });
    try {
      const caller = await authorizeFileRequest(services, request, response, 'viewer');
      const { table, format, view, timeZone } = parseExportRequest(request);
      const fileName = (rowExport: RowExport) =>
        exportFileName(rowExport.table.name, format.extension, timeZone, new Date());
      const release = slots.take(caller);
      let cutOff: NodeJS.Timeout | undefined;
      // From the download's first byte: the time the server took to have its first rows (a
      // long sort, a busy machine) is not the reader's. Counted from the request, it cut off
      // small exports on a starved server before their reader had been sent anything.
      const startDownload = () => {
        cutOff = setTimeout(() => {
          logger.warn(
            { table, caller: caller.name, maxMs: limits.maxMs },
            'export cut off: too long',
          );
          response.destroy();
        }, limits.maxMs);
      };
      try {
        const startedAt = performance.now();
        const rowExport = await openRowExport(services.prisma, services.masterSchema, table, view);
        if (request.method === 'HEAD') {
          sendHeaders(response, fileName(rowExport), format);
          response.end();
          return;
        }
        const rows = await sendFile(
          rowExport,
          fileName(rowExport),
          format,
          response,
          limits.stallMs,
          startDownload,
        ).catch((error) => {
          if (error instanceof ReaderStalled) {
            logger.warn(
              { table, caller: caller.name, stallMs: error.stallMs },
              'export cut off: its reader stalled',
            );
          }
          throw error;
        });
        const ms = Math.round(performance.now() - startedAt);
        logger.info(
          { table, format: format.extension, rows, ms, caller: caller.name },
          'export sent',
        );
      } finally {
        clearTimeout(cutOff);
        release();
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
  fileName: string,
  format: RowFileFormat,
  response: Response,
  stallMs: number,
  onStart: () => void,
): Promise<number> {
  let file: RowFile | undefined;
  const open = async () => {
    if (!file) {
      sendHeaders(response, fileName, format);
      onStart();
      file = await format.start(response, rowExport.table);
    }
    return file;
  };
  let rows = 0;
  await rowExport.forEachBatch(async (batch) => {
    (await open()).write(batch);
    rows += batch.length;
    await drained(response, stallMs);
  });
  await (await open()).end();
  return rows;
}

function sendHeaders(response: Response, fileName: string, format: RowFileFormat) {
  response.attachment(fileName);
  response.setHeader('Content-Type', format.contentType);
}
