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

export interface WriteGuardCostResult {
  importRows: number;
  saveRows: number;
  rounds: number;
  /** Seconds per guard: an import's apply, and a grid save. */
  importApplySeconds: Record<WriteGuard, Spread>;
  gridSaveSeconds: Record<WriteGuard, Spread>;
  /** RECORD's time over OFF's, round by round (targets: import apply ≤ 1.5, grid save ≤ 1.2). */
  recordOverOff: { importApply: Spread; gridSave: Spread };
}

const tableOf = (guard: WriteGuard) => `guard_bench_${guard.toLowerCase()}`;

/**
 * What the write guard costs tablelock's own writes: an import's apply of `importRows` new rows
 * and a grid save of `saveRows` updated rows, into a table of its own per guard (OFF, RECORD,
 * ENFORCE). The guards take turns in each round, so that load on the machine falls on all
 * alike. Through the master-data package, not the API: the guard's cost is the database's.
 */
export async function measureWriteGuardCost(
  databaseUrl: string,
  sizes: { importRows: number; saveRows: number; rounds: number },
): Promise<WriteGuardCostResult> {
  const prisma = createPrismaClient(databaseUrl, { poolSize: 2 });
  try {
    const tokens = await prepareTables(prisma);
    const importTimes = new Map<WriteGuard, number[]>(WRITE_GUARDS.map((g) => [g, []]));
    const saveTimes = new Map<WriteGuard, number[]>(WRITE_GUARDS.map((g) => [g, []]));
    for (let round = 0; round < sizes.rounds; round += 1) {
      const order = WRITE_GUARDS.map((_, i) => WRITE_GUARDS[(i + round) % WRITE_GUARDS.length]);
      for (const guard of order) {
        if (!guard) continue;
        const token = tokens.get(guard) ?? '';
        await emptyTable(prisma, guard);
        const imported = await timeImport(prisma, guard, token, sizes.importRows);
        importTimes.get(guard)?.push(imported);
        const saved = await timeSave(prisma, guard, token, sizes.saveRows);
        saveTimes.get(guard)?.push(saved);
        console.log(`  ${guard}: import ${imported.toFixed(2)} s, save ${saved.toFixed(2)} s`);
      }
    }
    const spreads = (times: Map<WriteGuard, number[]>) =>
      Object.fromEntries(WRITE_GUARDS.map((g) => [g, spreadOf(times.get(g) ?? [])])) as Record<
        WriteGuard,
        Spread
      >;
    const ratio = (times: Map<WriteGuard, number[]>) => {
      const off = times.get('OFF') ?? [];
      return spreadOf((times.get('RECORD') ?? []).map((record, i) => record / (off[i] ?? 1)));
    };
    return {
      ...sizes,
      importApplySeconds: spreads(importTimes),
      gridSaveSeconds: spreads(saveTimes),
      recordOverOff: { importApply: ratio(importTimes), gridSave: ratio(saveTimes) },
    };
  } finally {
    await prisma.$disconnect();
  }
}

/** One table per guard, its guard installed and its lock taken by the bench's editor. */
async function prepareTables(prisma: PrismaClient): Promise<Map<WriteGuard, string>> {
  const tokens = new Map<WriteGuard, string>();
  for (const guard of WRITE_GUARDS) {
    await prisma.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS ${MASTER_SCHEMA}.${tableOf(guard)}
      (id integer PRIMARY KEY, name text NOT NULL, amount numeric(12, 2), day date)`);
  }
  await syncTableRegistry(prisma, MASTER_SCHEMA);
  for (const guard of WRITE_GUARDS) {
    const tableName = tableOf(guard);
    await prisma.tablePolicy.upsert({
      where: { tableName },
      create: { tableName, writeGuard: guard },
      update: { writeGuard: guard },
    });
    const answer = await acquireTableLock(prisma, {
      tableName,
      editor: 'bench',
      leaseSeconds: 3600,
    });
    tokens.set(guard, grantedOrConflict(answer).fencingToken);
  }
  await syncWriteGuards(prisma, MASTER_SCHEMA, 'RECORD');
  return tokens;
}

/**
 * Empties the table (untimed) and the history, with their triggers off for the transaction:
 * recording 100,000 deletes is not what is measured.
 */
async function emptyTable(prisma: PrismaClient, guard: WriteGuard) {
  const table = `${MASTER_SCHEMA}.${tableOf(guard)}`;
  await prisma.$transaction(async (tx) => {
    const run = (sql: string) => tx.$queryRawUnsafe<unknown[]>(sql);
    await withoutTriggers(run, [table, 'tablelock.change_set'], async () => {
      await tx.$executeRawUnsafe(`TRUNCATE ${table}`);
      await tx.$executeRawUnsafe('TRUNCATE tablelock.row_change, tablelock.change_set');
    });
  });
}

async function timeImport(prisma: PrismaClient, guard: WriteGuard, token: string, rows: number) {
  const lines = Array.from(
    { length: rows },
    (_, i) =>
      `${i + 1},item ${i},${(i % 1000) + 0.25},2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
  );
  const report = await dryRunImport(prisma, {
    schema: MASTER_SCHEMA,
    tableName: tableOf(guard),
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

async function timeSave(prisma: PrismaClient, guard: WriteGuard, token: string, rows: number) {
  const current = await prisma.$queryRawUnsafe<{ id: string; version: string }[]>(
    `SELECT id::text AS id, xmin::text AS version FROM ${MASTER_SCHEMA}.${tableOf(guard)}
     ORDER BY id LIMIT ${rows}`,
  );
  const started = performance.now();
  await saveRows(prisma, {
    schema: MASTER_SCHEMA,
    tableName: tableOf(guard),
    holder: 'bench',
    token,
    changes: {
      updates: current.map(({ id, version }) => ({
        key: { id },
        version,
        values: { name: `saved ${id}` },
      })),
    },
  });
  return (performance.now() - started) / 1000;
}
