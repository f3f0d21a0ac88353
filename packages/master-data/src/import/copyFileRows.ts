import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Queryable, withPoolConnection } from '@tablelock/db';
import { from as copyFrom } from 'pg-copy-streams';
import type { FileRow } from './fileRow';
import { badFile } from './importFileErrors';

/**
 * A row as a line of COPY's text format: its cells as a JSON array, whose only backslashes
 * (JSON's own escapes) COPY would otherwise read as its own. JSON escapes tabs and line ends.
 */
const copyLine = (dryRunId: string, { line, cells }: FileRow) =>
  `${dryRunId}\t${line}\t${JSON.stringify(cells).replaceAll('\\', '\\\\')}\n`;

async function* copyText(dryRunId: string, batches: AsyncIterable<FileRow[]>) {
  for await (const batch of batches) {
    let text = '';
    for (const row of batch) text += copyLine(dryRunId, row);
    yield text;
    // Batches already read chain through promises alone; a turn of the event loop between
    // them lets other requests in (a lease renewal, /healthz) however fast the file comes.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Streams a file's rows into `tablelock.import_staging` with COPY as they are read: the API
 * holds one batch at a time, and waits for Postgres when it falls behind. A failure of the
 * reading aborts the COPY, so none of the rows stay.
 */
export async function copyFileRows(
  db: Queryable,
  dryRunId: string,
  batches: AsyncIterable<FileRow[]>,
): Promise<void> {
  await withPoolConnection(db, async (client) => {
    const copy = client.query(
      copyFrom('COPY tablelock.import_staging (dry_run_id, line, cells) FROM STDIN'),
    );
    // One batch waits at a time: rows held longer outlive the young generation, and the
    // API's heap grows with them.
    await pipeline(Readable.from(copyText(dryRunId, batches), { highWaterMark: 1 }), copy);
  }).catch((error: unknown) => {
    // Class 22: text Postgres cannot hold (a NUL character).
    const { code, message } = error as { code?: unknown; message?: string };
    if (typeof code === 'string' && code.startsWith('22')) {
      throw badFile(`The file holds text the database cannot store: ${message}.`);
    }
    throw error;
  });
}
