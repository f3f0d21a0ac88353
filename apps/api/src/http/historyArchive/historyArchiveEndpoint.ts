import { readSecurityEventArchive } from '@tablelock/identity';
import { readLockEventArchive } from '@tablelock/lock';
import { guardFormulaText } from '@tablelock/master-data';
import type { RequestHandler, Response } from 'express';
import { authorizeFileRequest } from '../../auth/authorizeFileRequest';
import type { ApiServices } from '../../context';
import { csvRecords, UTF8_BOM } from '../export/csvFile';
import { drained } from '../export/drained';
import { refuseFileRequest } from '../refuseFileRequest';
import { requestIdOf } from '../requestId';
import {
  type ArchivedHistory,
  type HistoryArchiveRequest,
  parseHistoryArchiveRequest,
} from './historyArchiveRequest';

/** Events read per query: the download never holds a connection or a transaction for long. */
const BATCH = 1_000;

type ArchivedEvent = { id: string; at: Date } & Record<string, unknown>;

/** The columns of each history's CSV, in order; JSON Lines has the same fields. */
const CSV_COLUMNS: Record<ArchivedHistory, string[]> = {
  lock: [
    'id',
    'at',
    'action',
    'table',
    'actor',
    'editor',
    'token',
    'reason',
    'rowsChanged',
    'details',
  ],
  security: ['id', 'at', 'action', 'actor', 'subject', 'ip', 'details'],
};

/**
 * `GET /export/history?history=lock|security&format=jsonl|csv&from=&to=`, admins only: every
 * event of the lock history or the security events in that time, oldest first, streamed as it
 * is read, so that operators keep what the retention settings purge.
 */
export function historyArchiveEndpoint(services: ApiServices, stallMs: number): RequestHandler {
  return async (request, response) => {
    const logger = services.logger.child({ requestId: requestIdOf(response) });
    try {
      const caller = await authorizeFileRequest(services, request, response, 'admin');
      const archive = parseHistoryArchiveRequest(request);
      const startedAt = performance.now();
      const events = await sendArchive(services, archive, response, stallMs);
      logger.info(
        { ...archive, events, ms: Math.round(performance.now() - startedAt), caller: caller.name },
        'history exported',
      );
    } catch (error) {
      refuseFileRequest(services, response, error, logger);
    }
  };
}

async function sendArchive(
  services: ApiServices,
  { history, format, from, to }: HistoryArchiveRequest,
  response: Response,
  stallMs: number,
): Promise<number> {
  const read = (after: bigint): Promise<ArchivedEvent[]> =>
    history === 'lock'
      ? readLockEventArchive(services.prisma, { after, from, to, limit: BATCH })
      : readSecurityEventArchive(services.prisma, { after, from, to, limit: BATCH });
  const columns = CSV_COLUMNS[history];
  // Read before anything is sent, so that a failure of the first query is still answered as an error.
  let batch = await read(0n);
  response.attachment(`${history}-history.${format}`);
  if (format === 'csv') {
    response.setHeader('Content-Type', 'text/csv; charset=utf-8');
    response.write(UTF8_BOM + csvRecords([columns]));
  } else {
    response.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
  }
  let events = 0;
  while (batch.length > 0) {
    response.write(
      format === 'csv'
        ? csvRecords(batch.map((event) => columns.map((column) => csvField(event[column]))))
        : batch.map((event) => `${JSON.stringify(event)}\n`).join(''),
    );
    events += batch.length;
    await drained(response, stallMs);
    const last = batch.at(-1);
    batch = last && batch.length === BATCH ? await read(BigInt(last.id)) : [];
  }
  response.end();
  return events;
}

function csvField(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return guardFormulaText(text);
}
