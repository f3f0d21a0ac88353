import { DomainError } from '@tablelock/errors';
import {
  applyImport,
  dryRunImport,
  type ImportFormat,
  MAX_IMPORT_BYTES,
  MasterDataError,
} from '@tablelock/master-data';
import express, { type Request, type RequestHandler } from 'express';
import { authorizeFileRequest } from '../auth/authorizeFileRequest';
import type { ApiServices } from '../context';
import { refuseFileRequest } from '../refuseFileRequest';
import { requestIdOf } from '../requestId';

const FORMAT_BY_TYPE: Record<string, ImportFormat> = {
  'text/csv': 'csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

/**
 * The file as the raw body, up to the import limit. Only the two file types are read: a form
 * of another site can post `text/plain` or form encodings without asking, never these.
 */
const readFile = express.raw({
  type: Object.keys(FORMAT_BY_TYPE),
  limit: MAX_IMPORT_BYTES,
});

/**
 * `POST /import/<table>?token=<fencing token>&fileName=<name>[&dryRun=1]` with a CSV
 * (`Content-Type: text/csv`) or XLSX file as the body: the holder of the table's lock imports
 * it, by session cookie (from the app's own pages) or API key. With `dryRun=1` the answer is
 * the kept dry run (`{ report }`: its id, counts and columns; rows through GraphQL
 * `importReport`); without, the file is written at once if it has no errors. Refusals are coded
 * JSON errors, as GraphQL's.
 */
export function importEndpoint(services: ApiServices): RequestHandler[] {
  return [
    (request, response, next) =>
      readFile(request, response, (error?: unknown) => {
        if (!error) return next();
        const status = (error as { status?: number }).status;
        refuseFileRequest(
          services,
          response,
          status === 413
            ? new MasterDataError(
                'IMPORT_TOO_LARGE',
                `The file is over ${MAX_IMPORT_BYTES / 1024 / 1024} MB; split it.`,
                { maxBytes: MAX_IMPORT_BYTES },
              )
            : new DomainError('BAD_USER_INPUT', 'The file could not be read.'),
          services.logger,
        );
      }),
    async (request, response) => {
      const logger = services.logger.child({ requestId: requestIdOf(response) });
      try {
        const caller = await authorizeFileRequest(services, request, response, 'editor');
        const { table, token, fileName, dryRun, format } = parseImportRequest(request);
        const startedAt = performance.now();
        const dryRunReport = await dryRunImport(services.prisma, {
          schema: services.masterSchema,
          tableName: table,
          holder: caller.name,
          token,
          fileName,
          format,
          content: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        });
        const report = dryRun
          ? dryRunReport
          : await applyImport(services.prisma, {
              schema: services.masterSchema,
              id: dryRunReport.id,
              holder: caller.name,
              token,
            });
        if (report.applied)
          services.metrics.recordSave(report.counts.create + report.counts.update);
        const ms = Math.round(performance.now() - startedAt);
        logger.info({ table, dryRun, counts: report.counts, ms, caller: caller.name }, 'import');
        response.json({ report });
      } catch (error) {
        refuseFileRequest(services, response, error, logger);
      }
    },
  ];
}

function parseImportRequest(request: Request) {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const format = FORMAT_BY_TYPE[type];
  if (!format) {
    throw new MasterDataError(
      'IMPORT_BAD_FILE',
      'Send the file as the body, with Content-Type text/csv or the XLSX type.',
    );
  }
  const { token, fileName, dryRun, ...unknown } = request.query;
  if (Object.keys(unknown).length > 0) {
    throw new DomainError(
      'BAD_USER_INPUT',
      `Unknown parameter ${Object.keys(unknown).join(', ')}: an import takes token, fileName and dryRun.`,
    );
  }
  if (typeof token !== 'string') {
    throw new DomainError('BAD_USER_INPUT', 'Give the fencing token of your lock as token.');
  }
  if (dryRun !== undefined && dryRun !== '1' && dryRun !== '0') {
    throw new DomainError('BAD_USER_INPUT', 'dryRun is 1 or 0.');
  }
  return {
    table: String(request.params.table ?? ''),
    token,
    fileName: typeof fileName === 'string' && fileName !== '' ? fileName : `import.${format}`,
    dryRun: dryRun === '1',
    format,
  };
}
