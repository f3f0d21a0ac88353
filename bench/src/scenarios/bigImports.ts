import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { createPrismaClient } from '@tablelock/db';
import { syncTableRegistry } from '@tablelock/lock';
import { handmadeXlsx } from '@tablelock/test-support';
import { request } from 'undici';
import { graphql } from '../graphqlClient';

/** One import step, with what it cost the API while it ran. */
export interface BigImportStep {
  name: string;
  rows: number;
  megabytes: number;
  seconds: number;
  /** The API's highest resident memory during the step, above its size before the run. */
  apiRssAboveIdleMb: number;
  /** The slowest `/healthz` answer during the step. */
  healthzMaxMs: number;
  error?: string;
}

export interface BigImportResult {
  apiIdleRssMb: number;
  steps: BigImportStep[];
}

const TABLE = 'bench_import';
const HEADER = 'id,name,amount,created_on';

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/**
 * Samples the API's memory and times `/healthz` one request after another while `work` runs:
 * the API must keep answering at once however large the file.
 */
async function watched(
  baseUrl: string,
  pid: number,
  idleMb: number,
  work: () => Promise<void>,
): Promise<{ seconds: number; apiRssAboveIdleMb: number; healthzMaxMs: number; error?: string }> {
  let running = true;
  let peakMb = idleMb;
  let healthzMaxMs = 0;
  const memory = (async () => {
    while (running) {
      peakMb = Math.max(peakMb, await rssMb(pid));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const health = (async () => {
    while (running) {
      const began = performance.now();
      const answer = await request(`${baseUrl}/healthz`);
      await answer.body.dump();
      healthzMaxMs = Math.max(healthzMaxMs, performance.now() - began);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const began = performance.now();
  let error: string | undefined;
  try {
    await work();
  } catch (failure) {
    error = (failure as Error).message.slice(0, 300);
  }
  const seconds = (performance.now() - began) / 1000;
  running = false;
  await Promise.all([memory, health]);
  return {
    seconds,
    apiRssAboveIdleMb: peakMb - idleMb,
    healthzMaxMs,
    ...(error ? { error } : {}),
  };
}

function csvOf(rows: number, suffix: string): Buffer {
  const lines = [HEADER];
  for (let id = 1; id <= rows; id++) {
    lines.push(
      `${id},Item ${id}${suffix},${(id % 10_000) / 100},2026-0${(id % 9) + 1}-1${id % 10}`,
    );
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

function xlsxOf(rows: number, suffix: string): Promise<Buffer> {
  const text = (reference: string, value: string) =>
    `<c r="${reference}" t="inlineStr"><is><t>${value}</t></is></c>`;
  return handmadeXlsx(
    (function* () {
      yield `<row r="1">${text('A1', 'id')}${text('B1', 'name')}${text('C1', 'amount')}${text('D1', 'created_on')}</row>`;
      for (let id = 1; id <= rows; id++) {
        const r = id + 1;
        yield `<row r="${r}"><c r="A${r}"><v>${id}</v></c>${text(`B${r}`, `Item ${id}${suffix}`)}<c r="C${r}"><v>${(id % 10_000) / 100}</v></c>${text(`D${r}`, `2026-0${(id % 9) + 1}-1${id % 10}`)}</row>`;
      }
    })(),
  );
}

/**
 * Imports into a table of its own (id, name, amount, date): a dry run of `smallRows` new rows
 * (timed), then `largeRows` rows as CSV (dry run and apply: creates) and as XLSX (dry run and
 * apply: every name changed), watching the API's memory and `/healthz` throughout.
 */
export async function measureBigImports(
  baseUrl: string,
  databaseUrl: string,
  apiKey: string,
  apiPid: number,
  { smallRows, largeRows }: { smallRows: number; largeRows: number },
): Promise<BigImportResult> {
  const prisma = createPrismaClient(databaseUrl, { poolSize: 1 });
  await prisma.$executeRawUnsafe(
    `CREATE TABLE IF NOT EXISTS master.${TABLE} (id bigint PRIMARY KEY, name text NOT NULL, amount numeric(12,2), created_on date)`,
  );
  await prisma.$executeRawUnsafe(`TRUNCATE master.${TABLE}`);
  await syncTableRegistry(prisma, 'master');
  await prisma.$disconnect();
  const apiIdleRssMb = await rssMb(apiPid);
  const steps: BigImportStep[] = [];
  const acquired = await graphql(
    baseUrl,
    apiKey,
    `mutation { acquireTableLock(table: "${TABLE}", leaseSeconds: 3600) { token } }`,
    {},
  );
  const token = acquired.acquireTableLock?.token as string;
  const upload = async (file: Buffer, type: string, fileName: string, expected: number) => {
    const search = new URLSearchParams({ token, fileName, dryRun: '1' });
    const answer = await request(`${baseUrl}/import/${TABLE}?${search}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': type },
      body: file,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    const body = (await answer.body.json()) as {
      report?: { id: string; counts: { total: number; error: number } };
      errors?: unknown[];
    };
    if (!body.report || body.report.counts.total !== expected || body.report.counts.error > 0) {
      throw new Error(`dry run: ${JSON.stringify(body.errors ?? body.report?.counts)}`);
    }
    return body.report.id;
  };
  const apply = (id: string) =>
    graphql(
      baseUrl,
      apiKey,
      'mutation($id: ID!, $token: String!) { applyImport(id: $id, token: $token) { applied } }',
      { id, token },
    );
  const step = async (name: string, rows: number, file: Buffer, work: () => Promise<void>) => {
    console.log(`  ${name}…`);
    const measured = await watched(baseUrl, apiPid, apiIdleRssMb, work);
    steps.push({ name, rows, megabytes: file.length / 1e6, ...measured });
    console.log(
      `    ${measured.seconds.toFixed(2)} s, API RSS +${measured.apiRssAboveIdleMb.toFixed(0)} MB, /healthz max ${measured.healthzMaxMs.toFixed(0)} ms${measured.error ? `, ${measured.error}` : ''}`,
    );
  };
  try {
    const CSV = 'text/csv';
    const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    const small = csvOf(smallRows, '');
    await step(
      `CSV dry run, ${smallRows.toLocaleString('en')} rows`,
      smallRows,
      small,
      async () => {
        await upload(small, CSV, 'small.csv', smallRows);
      },
    );
    const csv = csvOf(largeRows, '');
    let dryRunId = '';
    await step(`CSV dry run, ${largeRows.toLocaleString('en')} rows`, largeRows, csv, async () => {
      dryRunId = await upload(csv, CSV, 'large.csv', largeRows);
    });
    await step(`CSV apply, ${largeRows.toLocaleString('en')} rows`, largeRows, csv, async () => {
      await apply(dryRunId);
    });
    const xlsx = await xlsxOf(largeRows, ' (xlsx)');
    await step(
      `XLSX dry run, ${largeRows.toLocaleString('en')} rows`,
      largeRows,
      xlsx,
      async () => {
        dryRunId = await upload(xlsx, XLSX, 'large.xlsx', largeRows);
      },
    );
    await step(`XLSX apply, ${largeRows.toLocaleString('en')} rows`, largeRows, xlsx, async () => {
      await apply(dryRunId);
    });
  } finally {
    await graphql(
      baseUrl,
      apiKey,
      `mutation($token: String!) { releaseTableLock(table: "${TABLE}", token: $token) { name } }`,
      { token },
    ).catch(() => undefined);
  }
  return { apiIdleRssMb, steps };
}
