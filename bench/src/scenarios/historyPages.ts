import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createGraphQLClient } from '../graphqlClient';
import { type LatencySummary, summarizeLatencies } from '../latency';
import { withIndexesBuiltAfter } from '../withIndexesBuiltAfter';
import { withoutTriggers } from '../withoutTriggers';

export interface HistoryPagesResult {
  lockEvents: number;
  rowChanges: number;
  /** How long writing them took (untimed by the targets: the bench's own setup). */
  fillSeconds: number;
  pages: { page: string; latencyMs: LatencySummary }[];
  errors: number;
  firstError?: string;
}

/** The page of one row's history, judged by a target of its own. */
const HISTORY_ROW_PAGE = "a product's row history";

/**
 * A page's target, p50: any history page (lock events, a table's changes) under 100 ms; a row's
 * history, an index lookup whatever the number of row changes, under 50 ms (issue 45).
 */
export function historyPageLimitMs(page: string): number {
  return page === HISTORY_ROW_PAGE ? 50 : 100;
}

/**
 * The histories of a long-running install: 10 million lock events, 10 million row changes (issue
 * 45: a row's history and a table's changes read beside them). A quick run keeps to small ones:
 * writing ten million takes minutes.
 */
export function historyPageSizes(quick: boolean) {
  return quick
    ? { lockEvents: 100_000, rowChanges: 10_000, repetitions: 5 }
    : { lockEvents: 10_000_000, rowChanges: 10_000_000, repetitions: 20 };
}

/** Row changes per change set: a save or import of products. */
const ROWS_PER_CHANGE = 1_000;

/**
 * The audit histories as a long-running install has them: `sizes.lockEvents` lock events and
 * `sizes.rowChanges` row changes of products, written straight into the database. Then the pages
 * admins and editors read, one request at a time: the newest lock events, a page by keyset in
 * the middle, an action filter, and the newest changes of products and a row's history.
 */
export async function measureHistoryPages(
  baseUrl: string,
  apiKey: string,
  databaseUrl: string,
  sizes: { lockEvents: number; rowChanges: number; repetitions: number },
): Promise<HistoryPagesResult> {
  const fillStarted = performance.now();
  const { middleId, productId } = await fillHistories(databaseUrl, sizes);
  const fillSeconds = (performance.now() - fillStarted) / 1000;
  const api = createGraphQLClient(baseUrl, 1);
  const reads: {
    page: string;
    query: string;
    variables?: Record<string, unknown>;
    /** What the page must hold: a page read fast because it found nothing measures nothing. */
    found: (
      data: Record<
        string,
        { total?: number; events?: unknown[]; changes?: unknown[]; rows?: unknown[] }
      >,
    ) => boolean;
  }[] = [
    {
      page: 'lock history, newest 50',
      query: '{ lockEvents(limit: 50) { total events { id } } }',
      found: (data) => data.lockEvents?.events?.length === 50,
    },
    {
      page: 'lock history, 50 older than the middle',
      query: 'query($b: ID) { lockEvents(limit: 50, before: $b) { total events { id } } }',
      variables: { b: middleId },
      found: (data) => data.lockEvents?.events?.length === 50,
    },
    {
      page: 'lock history, force releases only',
      query:
        '{ lockEvents(limit: 50, filter: { actions: [force_release] }) { total events { id } } }',
      found: (data) => data.lockEvents !== undefined,
    },
    {
      page: 'changes of products, newest 20',
      query: '{ tableChanges(table: "products") { changes { id } endCursor } }',
      found: (data) => (data.tableChanges?.changes?.length ?? 0) > 0,
    },
    {
      page: HISTORY_ROW_PAGE,
      query:
        'query($id: String!) { rowHistory(table: "products", key: { id: $id }) { rows { operation } } }',
      variables: { id: productId },
      found: (data) => (data.rowHistory?.rows?.length ?? 0) > 0,
    },
  ];
  const pages: HistoryPagesResult['pages'] = [];
  let errors = 0;
  let firstError: string | undefined;
  try {
    for (const { page, query, variables, found } of reads) {
      const latencies: number[] = [];
      for (let i = 0; i < sizes.repetitions; i++) {
        const start = performance.now();
        try {
          const data = await api.request<Parameters<typeof found>[0]>(apiKey, query, variables);
          latencies.push(performance.now() - start);
          if (!found(data)) throw new Error(`found less than it should: ${JSON.stringify(data)}`);
        } catch (error) {
          errors++;
          firstError ??= `${page}: ${(error as Error).message}`;
        }
      }
      pages.push({ page, latencyMs: summarizeLatencies(latencies) });
    }
  } finally {
    await api.close();
  }
  return {
    lockEvents: sizes.lockEvents,
    rowChanges: sizes.rowChanges,
    fillSeconds,
    pages,
    errors,
    ...(firstError ? { firstError } : {}),
  };
}

const HISTORY_TABLES = [
  'tablelock.lock_event',
  'tablelock.change_set',
  'tablelock.row_change',
  'tablelock.row_change_batch',
];

/**
 * Writes the histories; returns the id of the lock event in their middle, and a product whose
 * history is read: one in the first batch written (in a full run every product has 100 changes,
 * half of them in batches; in a quick one, most have none).
 */
async function fillHistories(
  databaseUrl: string,
  sizes: { lockEvents: number; rowChanges: number },
): Promise<{ middleId: string; productId: string }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Without triggers (the outbox's among them): these rows stand for history written long
    // ago, whose events were delivered then. With them, ten million rows took over ten minutes.
    await client.query('BEGIN');
    const run = async (sql: string) => (await client.query(sql)).rows;
    await withoutTriggers(run, HISTORY_TABLES, async () => {
      await client.query(
        `INSERT INTO tablelock.lock_event (at, action, table_name, actor, editor, rows_changed)
         SELECT now() - make_interval(secs => n / 10.0),
                (ARRAY['acquire', 'release', 'save', 'denied']::tablelock."LockAction"[])[1 + n % 4],
                'history_bench_' || (n % 100), 'user' || (n % 50), 'user' || (n % 50), n % 7
         FROM generate_series(1, $1::int) AS n`,
        [sizes.lockEvents],
      );
      await client.query('ANALYZE tablelock.lock_event');
      const changeSets = Math.max(2, Math.floor(sizes.rowChanges / ROWS_PER_CHANGE));
      await client.query(
        `INSERT INTO tablelock.change_set (table_name, kind, actor, db_role, at, txid)
         -- One transaction writes them all: each change set gets a transaction id of its own.
         SELECT 'products', 'save', 'user' || (n % 50), 'tablelock', now() - make_interval(mins => n),
                n::text::xid8
         FROM generate_series(1, $1::int) AS n`,
        [changeSets],
      );
      // Each change set its own run of the 100,000 products: every product has a history, the
      // one whose history is read among them. Half of the change sets one row change per row,
      // half in batches (docs/decisions/0022), as the history is once batches are turned on.
      await withIndexesBuiltAfter(run, 'tablelock.row_change', () =>
        client.query(
          `INSERT INTO tablelock.row_change (change_set_id, table_name, row_key, operation, old_values, new_values)
           SELECT cs.id, 'products', jsonb_build_object('id', (1 + (cs.id * $1::int + r) % 100000)::text),
                  'update', jsonb_build_object('name', 'before ' || r), jsonb_build_object('name', 'after ' || r)
           FROM tablelock.change_set AS cs CROSS JOIN generate_series(1, $1::int) AS r
           WHERE cs.table_name = 'products' AND cs.id % 2 = 0`,
          [ROWS_PER_CHANGE],
        ),
      );
      await withIndexesBuiltAfter(run, 'tablelock.row_change_batch', () =>
        client.query(
          `INSERT INTO tablelock.row_change_batch (change_set_id, table_name, hashes, first_id,
             last_id, row_count, keys, key_names, operations, names, old_rows, new_rows)
           SELECT change_set_id, 'products', hashes, id, id + $1::int - 1, $1::int, keys,
                  ARRAY['id'], array_fill('update'::text, ARRAY[$1::int]), ARRAY['id', 'name'],
                  old_rows, new_rows
           FROM (SELECT b.*, nextval('tablelock.row_change_id_seq'::regclass) AS id
                 FROM (SELECT cs.id AS change_set_id,
                              tablelock.sort(array_agg(tablelock.history_key_hash('products', k.key))) AS hashes,
                              array_agg(k.key) AS keys, array_agg(ARRAY[k.key, 'before ' || r]) AS old_rows,
                              array_agg(ARRAY[k.key, 'after ' || r]) AS new_rows
                       FROM tablelock.change_set AS cs CROSS JOIN generate_series(1, $1::int) AS r
                       CROSS JOIN LATERAL (SELECT (1 + (cs.id * $1::int + r) % 100000)::text AS key) AS k
                       WHERE cs.table_name = 'products' AND cs.id % 2 = 1
                       GROUP BY cs.id) AS b) AS numbered`,
          [ROWS_PER_CHANGE],
        ),
      );
    });
    await client.query('COMMIT');
    await client.query(
      'ANALYZE tablelock.row_change, tablelock.row_change_batch, tablelock.change_set',
    );
    const {
      rows: [picked],
    } = await client.query<{ middleId: string; productId: string }>(
      `SELECT (SELECT ((min(id) + max(id)) / 2)::text FROM tablelock.lock_event) AS "middleId",
              (SELECT keys[1] FROM tablelock.row_change_batch ORDER BY id LIMIT 1) AS "productId"`,
    );
    if (!picked) throw new Error('no history written');
    return picked;
  } finally {
    await client.end();
  }
}
