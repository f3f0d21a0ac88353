import { readFile } from 'node:fs/promises';
import { createPrismaClient, type PrismaClient } from '@tablelock/db';
import { acquireTableLock, grantedOrConflict } from '@tablelock/lock';
import { createEdition, dryRunImport, submitChangeRequest } from '@tablelock/master-data';
import { MASTER_SCHEMA } from '../benchDatabase';

export interface EditionResult {
  rows: number;
  /** From the edition's time to its first table taken (its run started). */
  startSeconds: number;
  /** From the edition's time to `applied_at`. */
  appliedSeconds: number;
  state: string;
  apiRssAtTimeMb: number;
  /** The API's greatest RSS from its time until applied, sampled every 50 ms, above that. */
  apiRssPeakAboveMb: number;
  failure?: unknown;
}

/** The edition's three tables: the changed column of each, and how many rows of it change. */
const PARTS = [
  { table: 'products', key: ['id'], column: 'unit_price', rows: 85_000 },
  { table: 'stock_levels', key: ['warehouse_id', 'product_id'], column: 'quantity', rows: 10_000 },
  { table: 'price_list_items', key: ['price_list_id', 'product_id'], column: 'price', rows: 5_000 },
] as const;

/**
 * Rows per change request: each table's rows go in requests of this many, as a person would
 * split a large file. A whole 85,000-row import submits too since its diff is stored within the
 * database (it outlived the submission's 5 s transaction before, 11.6 s); with this at 85,000
 * the edition applied 9.40 s after its time on a busy 2-core machine.
 */
const ROWS_PER_REQUEST = 5_000;
const EDITOR = 'bench-edition';
/** How far ahead of the database's clock the edition's time is set once it is ready. */
const LEAD_SECONDS = 3;
const SAMPLE_MS = 50;
const TIMEOUT_MS = 300_000;

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/**
 * A CSV of `count` rows of `table` from the `offset`-th in key order: its key and the changed
 * column (each value raised by 1).
 */
async function changeFile(
  prisma: PrismaClient,
  part: (typeof PARTS)[number],
  offset: number,
  count: number,
): Promise<Buffer> {
  const columns = [...part.key, part.column];
  const [file] = await prisma.$queryRawUnsafe<{ csv: string }[]>(
    `SELECT string_agg(concat_ws(',', ${part.key.join(', ')}, ${part.column} + 1), E'\\r\\n'
                       ORDER BY ${part.key.join(', ')}) AS csv
     FROM (SELECT * FROM ${MASTER_SCHEMA}.${part.table}
           ORDER BY ${part.key.join(', ')} OFFSET ${offset} LIMIT ${count}) AS chosen`,
  );
  return Buffer.from(`${columns.join(',')}\r\n${file?.csv ?? ''}\r\n`);
}

/** One request of the edition: `file` imported into `part.table` and submitted to the edition. */
async function submitToEdition(
  prisma: PrismaClient,
  editionId: string,
  part: (typeof PARTS)[number],
  file: Buffer,
  rows: number,
) {
  const token = grantedOrConflict(
    await acquireTableLock(prisma, { tableName: part.table, editor: EDITOR, leaseSeconds: 600 }),
  ).fencingToken;
  const dryRun = await dryRunImport(prisma, {
    schema: MASTER_SCHEMA,
    tableName: part.table,
    holder: EDITOR,
    token,
    fileName: `${part.table}.csv`,
    format: 'csv',
    content: file,
  });
  if (dryRun.counts.update !== rows)
    throw new Error(`${part.table}: ${JSON.stringify(dryRun.counts)}`);
  const submitted = await submitChangeRequest(prisma, {
    schema: MASTER_SCHEMA,
    tableName: part.table,
    author: EDITOR,
    token,
    changes: null,
    importDryRunId: dryRun.id,
    comment: null,
    keepEditing: false,
    submittedBy: EDITOR,
    submitters: [],
    editionId,
  });
  if (!submitted.request) throw new Error(JSON.stringify(submitted.rowErrors));
}

/**
 * Issue 44's Measure: an edition of 100,000 changed rows over three tables (imports of up to
 * ROWS_PER_REQUEST rows submitted to it), applied by the API's scheduler at its time. It is made
 * ready with its time far ahead, then moved to LEAD_SECONDS from now (its requests with it,
 * which wakes every scheduler); measured on the database's clock.
 */
export async function measureEdition(databaseUrl: string, apiPid: number): Promise<EditionResult> {
  const prisma = createPrismaClient(databaseUrl, { poolSize: 2 });
  try {
    const edition = await createEdition(prisma, {
      name: 'bench edition',
      effectiveAt: new Date(Date.now() + 3600_000),
      createdBy: EDITOR,
    });
    for (const part of PARTS) {
      for (let offset = 0; offset < part.rows; offset += ROWS_PER_REQUEST) {
        const count = Math.min(ROWS_PER_REQUEST, part.rows - offset);
        await submitToEdition(
          prisma,
          edition.id,
          part,
          await changeFile(prisma, part, offset, count),
          count,
        );
      }
    }
    const [moved] = await prisma.$queryRaw<{ at: Date }[]>`
      UPDATE tablelock.edition
      SET effective_at = clock_timestamp() + make_interval(secs => ${LEAD_SECONDS})
      WHERE id = ${edition.id}::bigint RETURNING effective_at AS at`;
    const effectiveAt = moved?.at ?? new Date();
    await prisma.$executeRaw`
      UPDATE tablelock.change_request SET effective_at = ${effectiveAt}
      WHERE edition_id = ${edition.id}::bigint`;

    const baseline = await rssMb(apiPid);
    let peak = baseline;
    const deadline = Date.now() + TIMEOUT_MS;
    let state = 'scheduled';
    while (state === 'scheduled' && Date.now() < deadline) {
      peak = Math.max(peak, await rssMb(apiPid));
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
      const [row] = await prisma.$queryRaw<{ state: string }[]>`
        SELECT state::text FROM tablelock.edition WHERE id = ${edition.id}::bigint`;
      state = row?.state ?? 'gone';
    }
    peak = Math.max(peak, await rssMb(apiPid));
    const [timing] = await prisma.$queryRaw<
      { started: number | null; applied: number | null; failure: unknown }[]
    >`
      SELECT extract(epoch FROM (SELECT min(event.at) FROM tablelock.lock_event AS event
                                 WHERE event.editor = ${`edition:${edition.id}`}) - e.effective_at)::float8 AS started,
             extract(epoch FROM e.applied_at - e.effective_at)::float8 AS applied,
             e.failure
      FROM tablelock.edition AS e WHERE e.id = ${edition.id}::bigint`;
    return {
      rows: PARTS.reduce((sum, part) => sum + part.rows, 0),
      startSeconds: timing?.started ?? Number.NaN,
      appliedSeconds: timing?.applied ?? Number.NaN,
      state,
      apiRssAtTimeMb: baseline,
      apiRssPeakAboveMb: peak - baseline,
      ...(timing?.failure ? { failure: timing.failure } : {}),
    };
  } finally {
    await prisma.$disconnect();
  }
}
