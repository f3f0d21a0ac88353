import { answerDurably } from '@tablelock/db';
import { DomainError } from '@tablelock/errors';
import {
  assertMayImport,
  IMPORT_LIMITS,
  type ImportFormat,
  MasterDataError,
} from '@tablelock/master-data';
import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { authorizeFileRequest } from '../../auth/authorizeFileRequest';
import type { ApiServices } from '../../context';
import { importRows } from '../../imports/importRows';
import { RETRY_AFTER_SECONDS } from '../../process/databaseUnreachable';
import { NO_SYNCHRONOUS_STANDBY } from '../../process/replicationGuard';
import { clientGone } from '../clientGone';
import { refuseFileRequest } from '../refuseFileRequest';
import { requestIdOf } from '../requestId';
import { createImportSlots } from './importSlots';
import { bodyTooLarge, importBody } from './readImportBody';

const FORMAT_BY_TYPE: Record<string, ImportFormat> = {
  'text/csv': 'csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

/**
 * `POST /import/<table>?token=<fencing token>&fileName=<name>[&dryRun=1]` with a CSV
 * (`Content-Type: text/csv`) or XLSX file as the body: the holder of the table's lock imports
 * it, by session cookie (from the app's own pages) or API key. With `dryRun=1` the answer is
 * the kept dry run (`{ report }`: its id, counts and columns; rows through GraphQL
 * `importReport`); without, the file is written at once if it has no errors. Refusals are coded
 * JSON errors, as GraphQL's. Who calls, their role, the lock and a place among the imports
 * under way are all settled before a byte of the body is read: a refused upload is answered
 * at once and its connection closed.
 */
export function importEndpoint(services: ApiServices, slots = createImportSlots()): RequestHandler {
  return async (request, response) => {
    const logger = services.logger.child({ requestId: requestIdOf(response) });
    let release: (() => void) | undefined;
    try {
      const caller = await authorizeFileRequest(services, request, response, 'editor');
      const { table, token, fileName, dryRun, format, columnMapping } = parseImportRequest(request);
      if (Number(request.headers['content-length'] ?? 0) > IMPORT_LIMITS.maxBytes) {
        throw bodyTooLarge(IMPORT_LIMITS);
      }
      // A dry run is kept in the database too: every import is a change, as importRows is.
      if (!(await services.replication.changesAllowed())) {
        throw new DomainError('SERVICE_UNAVAILABLE', NO_SYNCHRONOUS_STANDBY, {
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        });
      }
      release = slots.take(caller);
      const importCaller = {
        schema: services.masterSchema,
        tableName: table,
        holder: caller.name,
        token,
      };
      await assertMayImport(services.prisma, importCaller);
      const startedAt = performance.now();
      // Its report says what was written: given once a synchronous standby has it.
      const report = await answerDurably(services.prisma, () =>
        importRows(services, {
          ...importCaller,
          fileName,
          format,
          content: importBody(request, IMPORT_LIMITS),
          dryRun,
          ...(columnMapping ? { columnMapping } : {}),
          // A page's Cancel while the rows are checked: the check stops and keeps nothing.
          signal: clientGone({ request, response }),
        }),
      );
      const ms = Math.round(performance.now() - startedAt);
      logger.info({ table, dryRun, counts: report.counts, ms, caller: caller.name }, 'import');
      response.json({ report });
    } catch (error) {
      // The rest of a body that was not (or not all) read is not wanted: the connection is
      // closed once the answer is sent, rather than read to its end.
      if (!request.complete) response.setHeader('Connection', 'close');
      refuseFileRequest(services, response, error, logger);
    } finally {
      release?.();
    }
  };
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
  const { token, fileName, dryRun, columnMapping, ...unknown } = request.query;
  if (Object.keys(unknown).length > 0) {
    throw new DomainError(
      'BAD_USER_INPUT',
      `Unknown parameter ${Object.keys(unknown).join(', ')}: an import takes token, fileName, dryRun and columnMapping.`,
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
    columnMapping: columnMapping === undefined ? undefined : parseColumnMapping(columnMapping),
  };
}

const columnMappingShape = z.record(z.string(), z.string().nullable());

/** `columnMapping={"file column": "table column" or null, …}`, as JSON. */
function parseColumnMapping(text: unknown) {
  let value: unknown;
  try {
    value = typeof text === 'string' ? JSON.parse(text) : undefined;
  } catch {
    value = undefined;
  }
  const parsed = columnMappingShape.safeParse(value);
  if (!parsed.success) {
    throw new DomainError(
      'BAD_USER_INPUT',
      'columnMapping is a JSON object of file column names to table column names (or null to leave one out).',
    );
  }
  return parsed.data;
}
