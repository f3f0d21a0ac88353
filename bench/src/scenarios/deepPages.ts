import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createGraphQLClient, type GraphQLClient } from '../graphqlClient';
import { type LatencySummary, summarizeLatencies } from '../latency';

export interface DeepPagesResult {
  /** From the first sorted read until the sort index the API builds for it was usable. */
  sortIndexReadyMs: number;
  pages: { position: string; latencyMs: LatencySummary }[];
  errors: number;
  firstError?: string;
}

const PAGES_QUERY = `
  query($offset: Int, $after: String) {
    rows(table: "products", offset: $offset, after: $after, limit: 100,
         sort: [{ column: "name", direction: asc }]) {
      total endCursor rows { key version values }
    }
  }`;

interface PageData {
  rows: { total: number; endCursor: string | null; rows: unknown[] };
}

const OFFSETS = [0, 50_000, 99_900];

/**
 * `rows` of the 100,000 products sorted by name, 100 a page, one request at a time: by offset
 * at the start, middle and end, and the last page by cursor. Measured once the API's sort
 * index on name is there, as users see it from the second sort by a column on.
 */
export async function measureDeepPages(
  baseUrl: string,
  apiKey: string,
  databaseUrl: string,
  repetitions: number,
): Promise<DeepPagesResult> {
  const api = createGraphQLClient(baseUrl, 1);
  try {
    return await measure(api, apiKey, databaseUrl, repetitions);
  } finally {
    await api.close();
  }
}

async function measure(
  api: GraphQLClient,
  apiKey: string,
  databaseUrl: string,
  repetitions: number,
): Promise<DeepPagesResult> {
  const began = performance.now();
  await api.request<PageData>(apiKey, PAGES_QUERY, { offset: 0 });
  await waitForSortIndex(databaseUrl);
  const sortIndexReadyMs = performance.now() - began;
  const cursorAt = await api.request<PageData>(apiKey, PAGES_QUERY, { offset: 99_800 });
  const positions = [
    ...OFFSETS.map((offset) => ({ position: `offset ${offset}`, variables: { offset } })),
    {
      position: 'after a cursor at 99,900',
      variables: { after: cursorAt.rows.endCursor },
    },
  ];
  const pages: DeepPagesResult['pages'] = [];
  let errors = 0;
  let firstError: string | undefined;
  for (const { position, variables } of positions) {
    const latencies: number[] = [];
    for (let i = 0; i < repetitions; i++) {
      const start = performance.now();
      try {
        const data = await api.request<PageData>(apiKey, PAGES_QUERY, variables);
        if (data.rows.rows.length !== 100)
          throw new Error(`${position}: ${data.rows.rows.length} rows`);
        latencies.push(performance.now() - start);
      } catch (error) {
        errors++;
        firstError ??= (error as Error).message;
      }
    }
    pages.push({ position, latencyMs: summarizeLatencies(latencies) });
  }
  return { sortIndexReadyMs, pages, errors, ...(firstError ? { firstError } : {}) };
}

const INDEX_TIMEOUT_MS = 60_000;

/** Until a valid index on master.products starts with name (the API builds it in the background). */
async function waitForSortIndex(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = performance.now() + INDEX_TIMEOUT_MS;
    while (performance.now() < deadline) {
      const { rows } = await client.query<{ ready: boolean }>(`
        SELECT EXISTS (
          SELECT 1 FROM pg_index AS i
          JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
          WHERE i.indrelid = 'master.products'::regclass AND a.attname = 'name' AND i.indisvalid
        ) AS ready`);
      if (rows[0]?.ready) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the API built no sort index on products.name within 60 s');
  } finally {
    await client.end();
  }
}
