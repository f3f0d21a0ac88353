import { performance } from 'node:perf_hooks';
import { createPrismaClient, type PrismaClient } from '@tablelock/db';
import { acquireTableLock, grantedOrConflict } from '@tablelock/lock';
import { submitChangeRequest } from '@tablelock/master-data';
import { createGraphQLClient } from '../graphqlClient';
import { type LatencySummary, summarizeLatencies } from '../latency';

export interface RowsAsOfResult {
  requests: number;
  /** rows() of the first page, today. */
  today: LatencySummary;
  /** rows(asOf:) of the same page, after every scheduled request. */
  asOf: LatencySummary;
  errors: number;
  firstError?: string;
}

const TABLE = 'products';
const PAGE_SIZE = 100;
const ROWS_PER_REQUEST = 20;

const ROWS_QUERY = `
  query($asOf: DateTime) {
    rows(table: "products", limit: ${PAGE_SIZE}, asOf: $asOf) {
      total rows { key values scheduledChanges { column changeRequestId } }
    }
  }`;

interface PageData {
  rows: { total: number; rows: { scheduledChanges: unknown[] }[] };
}

/**
 * The first page of the 100,000 products as it will be after `requests` scheduled change
 * requests (each renames 20 rows spread over the table, half of them on the first page, and
 * the last also inserts and deletes one), beside the same page today, read one after the other
 * in turns so that both meet the same load.
 */
export async function measureRowsAsOf(
  { databaseUrl, apiUrl, apiKey }: { databaseUrl: string; apiUrl: string; apiKey: string },
  { requests, repetitions }: { requests: number; repetitions: number },
): Promise<RowsAsOfResult> {
  const prisma = createPrismaClient(databaseUrl, { poolSize: 1 });
  let effectiveAt: Date;
  try {
    effectiveAt = await scheduleRequests(prisma, requests);
  } finally {
    await prisma.$disconnect();
  }
  const asOf = new Date(effectiveAt.getTime() + 60_000).toISOString();
  const api = createGraphQLClient(apiUrl, 1);
  const today: number[] = [];
  const ahead: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const read = async (variables: { asOf: string | null }, into: number[]) => {
    const start = performance.now();
    try {
      const data = await api.request<PageData>(apiKey, ROWS_QUERY, variables);
      if (data.rows.rows.length !== PAGE_SIZE) throw new Error(`${data.rows.rows.length} rows`);
      if (variables.asOf && !data.rows.rows.some((row) => row.scheduledChanges.length > 0)) {
        throw new Error('no scheduled change on the first page');
      }
      into.push(performance.now() - start);
    } catch (error) {
      errors++;
      firstError ??= (error as Error).message;
    }
  };
  try {
    // Warm both statements' plans and caches before measuring.
    await read({ asOf: null }, []);
    await read({ asOf }, []);
    for (let i = 0; i < repetitions; i++) {
      await read({ asOf: null }, today);
      await read({ asOf }, ahead);
    }
  } finally {
    await api.close();
  }
  return {
    requests,
    today: summarizeLatencies(today),
    asOf: summarizeLatencies(ahead),
    errors,
    ...(firstError ? { firstError } : {}),
  };
}

/** `count` scheduled requests on products, a day apart from tomorrow on; the last one's time. */
async function scheduleRequests(prisma: PrismaClient, count: number): Promise<Date> {
  const [clock] = await prisma.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
  const now = clock?.now ?? new Date();
  let last = now;
  for (let r = 0; r < count; r++) {
    const ids = Array.from({ length: ROWS_PER_REQUEST }, (_, i) =>
      i % 2 === 0 ? 1 + r * 10 + i / 2 : 1_000 + r * 9_000 + i * 37,
    );
    const rows = await prisma.$queryRawUnsafe<{ id: number; version: string }[]>(
      `SELECT id, xmin::text AS version FROM master.${TABLE} WHERE id = ANY($1::int[])`,
      ids,
    );
    const lastRequest = r === count - 1;
    const token = grantedOrConflict(
      await acquireTableLock(prisma, { tableName: TABLE, editor: 'bench-as-of', leaseSeconds: 60 }),
    ).fencingToken;
    last = new Date(now.getTime() + (r + 1) * 24 * 60 * 60 * 1000);
    const submitted = await submitChangeRequest(prisma, {
      schema: 'master',
      tableName: TABLE,
      author: 'bench-as-of',
      token,
      changes: {
        updates: rows.map(({ id, version }) => ({
          key: { id: String(id) },
          version,
          values: { name: `scheduled ${r} ${id}` },
        })),
        ...(lastRequest
          ? {
              deletes: [{ key: { id: '99999' }, version: await versionOf(prisma, 99_999) }],
              inserts: [{ values: insertedProduct(await anyProduct(prisma)) }],
            }
          : {}),
      },
      importDryRunId: null,
      comment: null,
      keepEditing: false,
      submittedBy: 'bench-as-of',
      submitters: [],
      effectiveAt: last,
    });
    if (!submitted.request) throw new Error(JSON.stringify(submitted.rowErrors));
  }
  return last;
}

async function versionOf(prisma: PrismaClient, id: number): Promise<string> {
  const [row] = await prisma.$queryRawUnsafe<{ version: string }[]>(
    `SELECT xmin::text AS version FROM master.${TABLE} WHERE id = $1`,
    id,
  );
  if (!row) throw new Error(`no product ${id}`);
  return row.version;
}

async function anyProduct(prisma: PrismaClient): Promise<Record<string, string | null>> {
  const [row] = await prisma.$queryRawUnsafe<{ values: Record<string, string | null> }[]>(
    `SELECT jsonb_build_object('category_id', category_id::text, 'supplier_id', supplier_id::text,
              'currency_code', currency_code::text, 'launched_on', launched_on::text) AS values
     FROM master.${TABLE} WHERE id = 1`,
  );
  if (!row) throw new Error('no product 1');
  return row.values;
}

const insertedProduct = (references: Record<string, string | null>) => ({
  ...references,
  id: '100001',
  sku: 'AS-OF-100001',
  name: 'scheduled new product',
  unit_price: '1.00',
});
