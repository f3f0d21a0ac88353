import { createPrismaClient } from '@tablelock/db';
import { syncTableRegistry } from '@tablelock/lock';
import { manyMasterTablesSql } from '@tablelock/test-support/manyMasterTables';
import pg from 'pg';
import { type BrowserUser, createBrowserUser, launchChromium, signedInPage } from '../benchBrowser';
import { MASTER_SCHEMA } from '../benchDatabase';
import type { GraphQLClient } from '../graphqlClient';
import { type LatencySummary, summarizeLatencies } from '../latency';

interface PageGlobals {
  document: { querySelector(selector: string): unknown };
}

export interface ManyTablesResult {
  tables: number;
  createSeconds: number;
  registrySyncMs: number;
  /** The `tables` query with the fields the web app used to ask for every table. */
  tablesQuery: { latencyMs: LatencySummary; kilobytes: number };
  /** The Tables page's own query: its first page (100 rows), with counts. */
  tablePage: { latencyMs: LatencySummary; kilobytes: number };
  /** Navigation start → first rows of the Tables page visible, in a real browser. */
  firstScreenMs: LatencySummary;
  errors: number;
  firstError?: string;
}

const BROWSER_USER: BrowserUser = {
  username: 'bench-browser',
  password: 'bench-browser-password',
  role: 'viewer',
};

const TABLES_QUERY = `{
  tables {
    name status editor lockedBy references referencedBy version updatedAt acquiredAt
    leaseExpiresAt editBlock { kind blockers { table editor } } waiters { editor }
  }
}`;

const TABLE_PAGE_QUERY = `{
  tablePage(limit: 100) {
    total counts { normal editing locked }
    tables {
      name status editor lockedBy references version updatedAt acquiredAt leaseExpiresAt
      editBlock { kind blockers { table editor } } waiters { editor }
    }
  }
}`;

/** Adds `count` master tables (two FKs each) to the bench database; seconds taken. */
export async function addManyTables(databaseUrl: string, count: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  try {
    for (const script of manyMasterTablesSql(MASTER_SCHEMA, count)) await client.query(script);
  } finally {
    await client.end();
  }
  return (performance.now() - started) / 1000;
}

/** Time of one registry sync that registers every table (the app's start does the same). */
export async function measureRegistrySync(databaseUrl: string): Promise<number> {
  const prisma = createPrismaClient(databaseUrl, { poolSize: 2 });
  try {
    const started = performance.now();
    await syncTableRegistry(prisma, MASTER_SCHEMA);
    return performance.now() - started;
  } finally {
    await prisma.$disconnect();
  }
}

async function measureQuery(
  api: GraphQLClient,
  apiKey: string,
  query: string,
  repetitions: number,
): Promise<{ latencyMs: LatencySummary; kilobytes: number }> {
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < repetitions; i++) {
    const started = performance.now();
    const data = await api.request<unknown>(apiKey, query);
    samples.push(performance.now() - started);
    bytes = Buffer.byteLength(JSON.stringify({ data }));
  }
  return { latencyMs: summarizeLatencies(samples), kilobytes: bytes / 1024 };
}

/** A person signs in and opens the Tables page: ms from navigation start to the first rows shown. */
async function measureFirstScreen(apiUrl: string, repetitions: number): Promise<LatencySummary> {
  const browser = await launchChromium();
  try {
    const page = await signedInPage(browser, apiUrl, BROWSER_USER);
    const samples: number[] = [];
    for (let i = 0; i < repetitions; i++) {
      await page.goto('/tables', { waitUntil: 'commit' });
      const shown = await page.waitForFunction(
        // Runs in the page (compiled without the DOM's types; the app's CSP forbids a string).
        () =>
          (globalThis as unknown as PageGlobals).document.querySelector(
            '[data-testid^="table-row-"]',
          ) && performance.now(),
        undefined,
        { polling: 'raf', timeout: 60_000 },
      );
      samples.push(Number(await shown.jsonValue()));
    }
    return summarizeLatencies(samples);
  } finally {
    await browser.close();
  }
}

/** Everything measured about a registry of `tables` extra master tables, on a running API. */
export async function measureManyTables(
  options: { databaseUrl: string; apiUrl: string; api: GraphQLClient; apiKey: string },
  tables: number,
  repetitions: number,
): Promise<ManyTablesResult> {
  const createSeconds = await addManyTables(options.databaseUrl, tables);
  const registrySyncMs = await measureRegistrySync(options.databaseUrl);
  await createBrowserUser(options.databaseUrl, BROWSER_USER);
  let errors = 0;
  let firstError: string | undefined;
  const attempt = async <T>(work: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      errors++;
      firstError ??= String(error);
      return fallback;
    }
  };
  const empty = { latencyMs: summarizeLatencies([]), kilobytes: 0 };
  return {
    tables,
    createSeconds,
    registrySyncMs,
    tablesQuery: await attempt(
      () => measureQuery(options.api, options.apiKey, TABLES_QUERY, repetitions),
      empty,
    ),
    tablePage: await attempt(
      () => measureQuery(options.api, options.apiKey, TABLE_PAGE_QUERY, repetitions),
      empty,
    ),
    firstScreenMs: await attempt(
      () => measureFirstScreen(options.apiUrl, repetitions),
      summarizeLatencies([]),
    ),
    errors,
    ...(firstError ? { firstError } : {}),
  };
}
