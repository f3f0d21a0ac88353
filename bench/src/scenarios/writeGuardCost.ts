import { performance } from 'node:perf_hooks';
import { createPrismaClient, type PrismaClient } from '@tablelock/db';
import { acquireTableLock, grantedOrConflict, syncTableRegistry } from '@tablelock/lock';
import {
  applyImport,
  dryRunImport,
  saveRows,
  syncWriteGuards,
  WRITE_GUARDS,
  type WriteGuard,
} from '@tablelock/master-data';
import { MASTER_SCHEMA } from '../benchDatabase';
import { type Spread, spreadOf } from '../spread';
import { withoutTriggers } from '../withoutTriggers';

/**
 * What is measured: each guard with the history as migrated (statements of at least
 * `batchFromRows` rows recorded in batches, decision 0022), and RECORD with one row change per
 * row (batches switched off, as an operator may).
 */
export const CAPTURES = [...WRITE_GUARDS, 'RECORD_PER_ROW'] as const;
export type Capture = (typeof CAPTURES)[number];

const guardOf = (capture: Capture): WriteGuard =>
  capture === 'RECORD_PER_ROW' ? 'RECORD' : capture;

export interface WriteGuardCostResult {
  importRows: number;
  saveRows: number;
  rounds: number;
  /** From how many rows a statement is recorded in batches, as migrated (null: never). */
  batchFromRows: number | null;
  /** Seconds per capture: an import's apply, and a grid save. */
  importApplySeconds: Record<Capture, Spread>;
  gridSaveSeconds: Record<Capture, Spread>;
  /** RECORD's time over OFF's, round by round (targets: import apply ≤ 1.5, grid save ≤ 1.2). */
  recordOverOff: { importApply: Spread; gridSave: Spread };
  /** The same for RECORD one row change per row. */
  perRowOverOff: { importApply: Spread; gridSave: Spread };
}

const tableOf = (capture: Capture) => `guard_bench_${capture.toLowerCase()}`;

/**
 * What the write guard costs tablelock's own writes: an import's apply of `importRows` new rows
 * and a grid save of `saveRows` updated rows, into a table of its own per capture (OFF, RECORD,
 * ENFORCE, RECORD one row per row). The captures take turns in each round, so that load on the
 * machine falls on all alike. Through the master-data package, not the API: the guard's cost is
 * the database's.
 */
export async function measureWriteGuardCost(
  databaseUrl: string,
  sizes: { importRows: number; saveRows: number; rounds: number },
): Promise<WriteGuardCostResult> {
  const prisma = createPrismaClient(databaseUrl, { poolSize: 2 });
  const { batchFromRows } = await prisma.historyCapture.findUniqueOrThrow({ where: { id: true } });
  try {
    const tokens = await prepareTables(prisma);
    const importTimes = new Map<Capture, number[]>(CAPTURES.map((c) => [c, []]));
    const saveTimes = new Map<Capture, number[]>(CAPTURES.map((c) => [c, []]));
    for (let round = 0; round < sizes.rounds; round += 1) {
      const order = CAPTURES.map((_, i) => CAPTURES[(i + round) % CAPTURES.length]);
      for (const capture of order) {
        if (!capture) continue;
        const token = tokens.get(capture) ?? '';
        await emptyTable(prisma, capture);
        await prisma.historyCapture.update({
          where: { id: true },
          data: { batchFromRows: capture === 'RECORD_PER_ROW' ? null : batchFromRows },
        });
        const imported = await timeImport(prisma, capture, token, sizes.importRows);
        importTimes.get(capture)?.push(imported);
        const saved = await timeSave(prisma, capture, token, sizes.saveRows);
        saveTimes.get(capture)?.push(saved);
        console.log(`  ${capture}: import ${imported.toFixed(2)} s, save ${saved.toFixed(2)} s`);
      }
    }
    const spreads = (times: Map<Capture, number[]>) =>
      Object.fromEntries(CAPTURES.map((c) => [c, spreadOf(times.get(c) ?? [])])) as Record<
        Capture,
        Spread
      >;
    const ratio = (times: Map<Capture, number[]>, capture: Capture) => {
      const off = times.get('OFF') ?? [];
      return spreadOf((times.get(capture) ?? []).map((record, i) => record / (off[i] ?? 1)));
    };
    const overOff = (capture: Capture) => ({
      importApply: ratio(importTimes, capture),
      gridSave: ratio(saveTimes, capture),
    });
    return {
      ...sizes,
      batchFromRows,
      importApplySeconds: spreads(importTimes),
      gridSaveSeconds: spreads(saveTimes),
      recordOverOff: overOff('RECORD'),
      perRowOverOff: overOff('RECORD_PER_ROW'),
    };
  } finally {
    await prisma.historyCapture.update({ where: { id: true }, data: { batchFromRows } });
    await prisma.$disconnect();
  }
}

/** One table per capture, its guard installed and its lock taken by the bench's editor. */
async function prepareTables(prisma: PrismaClient): Promise<Map<Capture, string>> {
  const tokens = new Map<Capture, string>();
  for (const capture of CAPTURES) {
    await prisma.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS ${MASTER_SCHEMA}.${tableOf(capture)}
      (id integer PRIMARY KEY, name text NOT NULL, amount numeric(12, 2), day date)`);
  }
  await syncTableRegistry(prisma, MASTER_SCHEMA);
  for (const capture of CAPTURES) {
    const tableName = tableOf(capture);
    const writeGuard = guardOf(capture);
    await prisma.tablePolicy.upsert({
      where: { tableName },
      create: { tableName, writeGuard },
      update: { writeGuard },
    });
    const answer = await acquireTableLock(prisma, {
      tableName,
      editor: 'bench',
      leaseSeconds: 3600,
    });
    tokens.set(capture, grantedOrConflict(answer).fencingToken);
  }
  await syncWriteGuards(prisma, MASTER_SCHEMA, 'RECORD');
  return tokens;
}

/**
 * Empties the table (untimed) and the history, with their triggers off for the transaction:
 * recording 100,000 deletes is not what is measured.
 */
async function emptyTable(prisma: PrismaClient, capture: Capture) {
  const table = `${MASTER_SCHEMA}.${tableOf(capture)}`;
  await prisma.$transaction(async (tx) => {
    const run = (sql: string) => tx.$queryRawUnsafe<unknown[]>(sql);
    await withoutTriggers(run, [table, 'tablelock.change_set'], async () => {
      await tx.$executeRawUnsafe(`TRUNCATE ${table}`);
      await tx.$executeRawUnsafe(
        'TRUNCATE tablelock.row_change, tablelock.row_change_batch, tablelock.change_set',
      );
    });
  });
}

async function timeImport(prisma: PrismaClient, capture: Capture, token: string, rows: number) {
  const lines = Array.from(
    { length: rows },
    (_, i) =>
      `${i + 1},item ${i},${(i % 1000) + 0.25},2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
  );
  const report = await dryRunImport(prisma, {
    schema: MASTER_SCHEMA,
    tableName: tableOf(capture),
    holder: 'bench',
    token,
    fileName: 'guard.csv',
    format: 'csv',
    content: Buffer.from(`id,name,amount,day\r\n${lines.join('\r\n')}\r\n`),
  });
  const started = performance.now();
  await applyImport(prisma, { schema: MASTER_SCHEMA, id: report.id, holder: 'bench', token });
  return (performance.now() - started) / 1000;
}

/**
 * A grid save takes 40–90 ms here: one per round left the ratio to the noise of one sample
 * (0.8× to 1.3× in runs of the same build), so a round's figure is the median of several.
 */
const SAVES_PER_ROUND = 5;

async function timeSave(prisma: PrismaClient, capture: Capture, token: string, rows: number) {
  const times: number[] = [];
  for (let save = 0; save < SAVES_PER_ROUND; save += 1) {
    const current = await prisma.$queryRawUnsafe<{ id: string; version: string }[]>(
      `SELECT id::text AS id, xmin::text AS version FROM ${MASTER_SCHEMA}.${tableOf(capture)}
       ORDER BY id LIMIT ${rows}`,
    );
    const started = performance.now();
    await saveRows(prisma, {
      schema: MASTER_SCHEMA,
      tableName: tableOf(capture),
      holder: 'bench',
      token,
      changes: {
        updates: current.map(({ id, version }) => ({
          key: { id },
          version,
          values: { name: `saved ${id} (${save})` },
        })),
      },
    });
    times.push((performance.now() - started) / 1000);
  }
  return spreadOf(times).median;
}
