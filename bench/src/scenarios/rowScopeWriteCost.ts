import { performance } from 'node:perf_hooks';
import { createPrismaClient, type PrismaClient } from '@tablelock/db';
import {
  acquireRowScope,
  acquireTableLock,
  grantedOrConflict,
  syncTableRegistry,
} from '@tablelock/lock';
import { saveRows, syncWriteGuards } from '@tablelock/master-data';
import { MASTER_SCHEMA } from '../benchDatabase';
import { type Spread, spreadOf } from '../spread';

export interface RowScopeWriteCostResult {
  /** Other editors' live scopes on the scoped table while it is measured. */
  liveScopes: number;
  /** Rows each save and each guarded write changes. */
  rows: number;
  rounds: number;
  /** Seconds per write: under the whole table's token (today's), and under a row scope's. */
  gridSaveSeconds: { wholeTable: Spread; rowScope: Spread };
  guardedWriteSeconds: { wholeTable: Spread; rowScope: Spread };
  /** The scope's time over the whole table's, round by round (target ≤ 1.2). */
  rowScopeOverWholeTable: { gridSave: Spread; guardedWrite: Spread };
}

const WHOLE = 'scope_cost_whole';
const SCOPED = 'scope_cost_scoped';
/** The group the measured scope holds; the other scopes hold groups 1 to `liveScopes`. */
const OWN_GROUP = 0;

type Subject = 'wholeTable' | 'rowScope';
const TABLE_OF: Record<Subject, string> = { wholeTable: WHOLE, rowScope: SCOPED };

/**
 * What a row scope costs a write when its table has `liveScopes` other scopes: a grid save
 * (saveRows) of `rows` updated rows, and a guarded write (one UPDATE of as many rows under
 * `tablelock.use_lock`), each under a row scope's token of a table scoped by `grp` against the
 * same write under the whole table's token of a table of the same shape (today's cost). Both
 * tables have the write guard at RECORD. The two take turns in each round, so that load on the
 * machine falls on both alike. Through the packages, not the API: the cost is the database's.
 */
export async function measureRowScopeWriteCost(
  databaseUrl: string,
  sizes: { liveScopes: number; rows: number; rounds: number },
): Promise<RowScopeWriteCostResult> {
  const prisma = createPrismaClient(databaseUrl, { poolSize: 2 });
  try {
    const tokens = await prepareTables(prisma, sizes);
    const saves: Record<Subject, number[]> = { wholeTable: [], rowScope: [] };
    const writes: Record<Subject, number[]> = { wholeTable: [], rowScope: [] };
    for (let round = 0; round < sizes.rounds; round += 1) {
      const order: Subject[] =
        round % 2 === 0 ? ['wholeTable', 'rowScope'] : ['rowScope', 'wholeTable'];
      for (const subject of order) {
        saves[subject].push(await timeSave(prisma, TABLE_OF[subject], tokens[subject], round));
        writes[subject].push(
          await timeGuardedWrite(prisma, TABLE_OF[subject], tokens[subject], round),
        );
      }
    }
    const over = (times: Record<Subject, number[]>) =>
      spreadOf(times.rowScope.map((scoped, i) => scoped / (times.wholeTable[i] ?? scoped)));
    return {
      ...sizes,
      gridSaveSeconds: {
        wholeTable: spreadOf(saves.wholeTable),
        rowScope: spreadOf(saves.rowScope),
      },
      guardedWriteSeconds: {
        wholeTable: spreadOf(writes.wholeTable),
        rowScope: spreadOf(writes.rowScope),
      },
      rowScopeOverWholeTable: { gridSave: over(saves), guardedWrite: over(writes) },
    };
  } finally {
    await prisma.$disconnect();
  }
}

/**
 * Two tables of `rows` rows in the bench's group and as many in each other group; the whole one
 * locked by the bench, the scoped one scoped by `grp` with `liveScopes` scopes of other editors
 * and the bench's own of its group. Answers the bench's tokens.
 */
async function prepareTables(
  prisma: PrismaClient,
  sizes: { liveScopes: number; rows: number },
): Promise<Record<Subject, string>> {
  for (const table of [WHOLE, SCOPED]) {
    await prisma.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS ${MASTER_SCHEMA}.${table}
      (id integer PRIMARY KEY, grp integer NOT NULL, name text NOT NULL, amount numeric(12, 2))`);
    await prisma.$executeRawUnsafe(`INSERT INTO ${MASTER_SCHEMA}.${table}
      SELECT g * ${sizes.rows} + i, g, 'item ' || i, i FROM generate_series(0, ${sizes.liveScopes}) AS g,
        generate_series(1, ${sizes.rows}) AS i`);
  }
  await syncTableRegistry(prisma, MASTER_SCHEMA);
  for (const tableName of [WHOLE, SCOPED]) {
    const rowLockColumn = tableName === SCOPED ? 'grp' : null;
    await prisma.tablePolicy.upsert({
      where: { tableName },
      create: { tableName, writeGuard: 'RECORD', rowLockColumn },
      update: { writeGuard: 'RECORD', rowLockColumn },
    });
  }
  await syncWriteGuards(prisma, MASTER_SCHEMA, 'RECORD');
  const scope = (editor: string, group: number) =>
    acquireRowScope(prisma, {
      tableName: SCOPED,
      rows: [String(group)],
      editor,
      leaseSeconds: 3600,
      masterSchema: MASTER_SCHEMA,
    });
  for (let group = 1; group <= sizes.liveScopes; group += 1) {
    grantedOrConflict(await scope(`editor-${group}`, group));
  }
  return {
    wholeTable: grantedOrConflict(
      await acquireTableLock(prisma, { tableName: WHOLE, editor: 'bench', leaseSeconds: 3600 }),
    ).fencingToken,
    rowScope: grantedOrConflict(await scope('bench', OWN_GROUP)).fencingToken,
  };
}

/** A grid save of the bench group's rows, each given a new name. */
async function timeSave(prisma: PrismaClient, table: string, token: string, round: number) {
  const current = await prisma.$queryRawUnsafe<{ id: string; version: string }[]>(
    `SELECT id::text AS id, xmin::text AS version FROM ${MASTER_SCHEMA}.${table}
     WHERE grp = ${OWN_GROUP} ORDER BY id`,
  );
  const started = performance.now();
  const saved = await saveRows(prisma, {
    schema: MASTER_SCHEMA,
    tableName: table,
    holder: 'bench',
    token,
    changes: {
      updates: current.map(({ id, version }) => ({
        key: { id },
        version,
        values: { name: `save ${round} ${id}` },
      })),
    },
  });
  const seconds = (performance.now() - started) / 1000;
  if (!saved.saved) throw new Error(`the save of ${table} failed: ${saved.rowErrors[0]?.message}`);
  return seconds;
}

/** One UPDATE of the bench group's rows under use_lock, as an ETL job's would be. */
async function timeGuardedWrite(prisma: PrismaClient, table: string, token: string, round: number) {
  const started = performance.now();
  await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT tablelock.use_lock(${table}, ${token})`;
    await tx.$executeRawUnsafe(
      `UPDATE ${MASTER_SCHEMA}.${table} SET amount = amount + ${round % 2 === 0 ? 1 : -1}
       WHERE grp = ${OWN_GROUP}`,
    );
  });
  return (performance.now() - started) / 1000;
}
