import { randomUUID } from 'node:crypto';
import {
  applyMigrations,
  createDatabase,
  createPrismaClient,
  loadDemoData,
  type PrismaClient,
  pendingMigrations,
  withDatabase,
} from '@tablelock/db';
import {
  type ApiProcess,
  buildPreviousRelease,
  MASTER_SCHEMA,
  type PreviousRelease,
  poll,
  startApiProcess,
  stopApiProcess,
  twoPorts,
} from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lockHistory, lostAcknowledgements } from './support/failoverChecks';
import { runOperatorCli } from './support/operatorCli';
import { postGraphql } from './support/postGraphql';
import {
  type Acknowledgement,
  ROLLING_LOAD_TABLES,
  type RollingLoad,
  startRollingLoad,
} from './support/rollingLoad';
import {
  cyclesBetween,
  invalidGrants,
  longestPauseMs,
  lostSaves,
} from './support/rollingUpgradeChecks';

const CLIENTS = 16;
/** Cycles to see end before a replacement and after each (through whichever process answered). */
const CYCLES_PER_PHASE = CLIENTS / 2;
/** Bounds a phase that hangs; the drill asserts nothing about time. */
const PHASE_TIMEOUT_MS = 120_000;
/**
 * Four process starts, two drains and three phases of load: on a 2-core machine busy with other
 * work, more than the config's 180 s that catches a hung test.
 */
const DRILL_TIMEOUT_MS = 420_000;

describe('a rolling upgrade from the previous release under load', () => {
  let release: PreviousRelease;
  let databaseUrl: string;
  let prisma: PrismaClient;
  const processes: ApiProcess[] = [];
  let load: RollingLoad | undefined;

  beforeAll(async () => {
    release = await buildPreviousRelease();
    console.log(
      `rolling upgrade: previous release ${release.version} (${release.commit.slice(0, 7)}) ` +
        (release.builtInMs > 0 ? `built in ${release.builtInMs} ms` : 'from the cache'),
    );
    // A database as the previous release left it: its migrations only, and master tables to edit
    // (which its processes add to the registry as they start).
    const adminUrl = inject('adminUrl');
    const name = `upgrade_${randomUUID().replaceAll('-', '')}`;
    await createDatabase(adminUrl, name);
    databaseUrl = withDatabase(adminUrl, name);
    await applyMigrations(databaseUrl, release.migrationsDir);
    await loadDemoData(databaseUrl, MASTER_SCHEMA);
    prisma = createPrismaClient(databaseUrl, { poolSize: 2 });
  });

  afterAll(async () => {
    await load?.stop();
    await Promise.all(processes.map(stopApiProcess));
    await prisma?.$disconnect();
  });

  it(
    'replaces both processes one at a time: nothing lost, no error, the load never stops',
    async () => {
      const [portA, portB] = await twoPorts();
      const startPrevious = (name: string, port: number) =>
        startApiProcess(name, databaseUrl, port, processes, {}, release.apiDir);
      const [oldA, oldB] = await Promise.all([
        startPrevious('A (previous)', portA),
        startPrevious('B (previous)', portB),
      ]);
      // Keys made as the previous release makes them: an admin's by its command line, the
      // clients' by an admin through its API.
      const admin = await runOperatorCli(
        ['create-api-key', 'upgrade-admin', '--role', 'admin'],
        { DATABASE_URL: databaseUrl },
        '',
        release.apiDir,
      );
      expect(admin.code, admin.stderr).toBe(0);
      const keys = await Promise.all(
        Array.from({ length: CLIENTS }, async (_, i) => {
          const made = await postGraphql(
            oldA.url,
            { authorization: `Bearer ${admin.stdout.trim()}` },
            'mutation($name: String!) { createApiKey(name: $name, role: editor) { secret } }',
            { name: `upgrader-${i}` },
          );
          const secret = (made.body.data?.createApiKey as { secret?: string } | undefined)?.secret;
          if (!secret) throw new Error(`no key for client ${i}: ${JSON.stringify(made.body)}`);
          return secret;
        }),
      );

      // What the first new process is to apply: the migrations added since the previous release.
      const newMigrations = await pendingMigrations(prisma);
      const started = performance.now();
      load = startRollingLoad([oldA.url, oldB.url], keys);
      const running = load;
      const cyclesSoFar = () => running.cycleEnds.length;
      const untilMoreCycles = async (what: string) => {
        const target = cyclesSoFar() + CYCLES_PER_PHASE;
        await poll(what, PHASE_TIMEOUT_MS, async () =>
          cyclesSoFar() >= target || running.errors.length > 0 ? true : undefined,
        );
        expect(running.errors, what).toEqual([]);
      };
      await untilMoreCycles('the load through the previous release');

      // As an operator does: stop one old process (SIGTERM: it drains), start the new build in its
      // place (the first new one applies the new migrations), then the other.
      const swaps: { name: string; from: number; to: number }[] = [];
      for (const [old, port] of [
        [oldA, portA],
        [oldB, portB],
      ] as const) {
        const from = performance.now();
        await stopApiProcess(old);
        await startApiProcess(`${old.name[0]} (current)`, databaseUrl, port, processes);
        swaps.push({ name: old.name, from, to: performance.now() });
        expect(await pendingMigrations(prisma), `after replacing ${old.name}`).toEqual([]);
        if (old === oldA) {
          // Written as the new release writes it (a statement of 1,000 rows: in batches), read
          // by the previous release's process still serving (expand, then switch).
          const written = await writeWarehousesInOneStatement(prisma);
          const [batches] = await prisma.$queryRaw<{ count: number }[]>`
            SELECT count(*)::int FROM tablelock.row_change_batch WHERE table_name = 'warehouses'`;
          expect(batches?.count).toBe(1);
          const read = await postGraphql(
            oldB.url,
            { authorization: `Bearer ${admin.stdout.trim()}` },
            `query($key: JSON!) { rowHistory(table: "warehouses", key: $key) {
               rows { operation newValues } } }`,
            { key: { id: String(written.lastId) } },
          );
          expect(read.body.data?.rowHistory, JSON.stringify(read.body)).toEqual({
            rows: [{ operation: 'insert', newValues: expect.objectContaining(written.lastRow) }],
          });
        }
        await untilMoreCycles(`the load after replacing ${old.name}`);
      }
      const ended = performance.now();
      await running.stop();

      const windows = swaps.map(
        ({ name, from, to }) =>
          `${name} replaced in ${Math.round(to - from)} ms, ${cyclesBetween(running.cycleEnds, from, to)} cycles meanwhile`,
      );
      console.log(
        `rolling upgrade: ${running.cycleEnds.length} cycles by ${CLIENTS} clients in ${Math.round(ended - started)} ms, ` +
          `${running.retries()} requests retried; ${windows.join('; ')}; longest time without a finished cycle: ` +
          `${Math.round(longestPauseMs(running.cycleEnds, started, ended))} ms; ${newMigrations.length} new migrations applied by the first new process`,
      );

      expect(running.errors).toEqual([]);
      // The load went on while each process was being replaced: its partner answered.
      for (const { name, from, to } of swaps) {
        expect(cyclesBetween(running.cycleEnds, from, to), name).toBeGreaterThan(0);
      }
      const acknowledged = running.acknowledged;
      expect(lostAcknowledgements(acknowledged, await lockHistory(prisma))).toEqual([]);
      expect(lostSaves(acknowledged, await savedRows(prisma))).toEqual([]);
      expect(invalidGrants(acknowledged, await currentGrants(prisma))).toEqual([]);
    },
    DRILL_TIMEOUT_MS,
  );
});

/** Each load table's primary keys now. */
async function savedRows(prisma: PrismaClient): Promise<Map<string, Set<number>>> {
  const rows = new Map<string, Set<number>>();
  for (const table of ROLLING_LOAD_TABLES) {
    const ids = await prisma.$queryRawUnsafe<{ id: number }[]>(
      `SELECT id FROM ${MASTER_SCHEMA}.${table}`,
    );
    rows.set(table, new Set(ids.map((row) => row.id)));
  }
  return rows;
}

/**
 * 1,000 new warehouses in one statement, as a job writes them with SQL (RECORD lets it through
 * and keeps it); the last one's id and values as the row history gives them.
 */
async function writeWarehousesInOneStatement(
  prisma: PrismaClient,
): Promise<{ lastId: number; lastRow: Record<string, string> }> {
  const first = 900_000;
  const last = first + 999;
  await prisma.$executeRawUnsafe(
    `INSERT INTO ${MASTER_SCHEMA}.warehouses (id, code, name, region_id, capacity_m3, opened_on)
     SELECT i, 'UPG-' || i, 'upgrade ' || i, (SELECT min(id) FROM ${MASTER_SCHEMA}.regions), 100.5,
            DATE '2026-12-01'
     FROM generate_series($1::int, $2::int) AS i`,
    first,
    last,
  );
  return {
    lastId: last,
    lastRow: { id: String(last), code: `UPG-${last}`, name: `upgrade ${last}` },
  };
}

/** Each table's current grant (its fencing token while held). */
async function currentGrants(prisma: PrismaClient): Promise<Map<string, string | null>> {
  const tables = await prisma.tableLock.findMany({
    select: { tableName: true, fencingToken: true },
  });
  return new Map(tables.map((table) => [table.tableName, table.fencingToken?.toString() ?? null]));
}

// The drill's checks on made-up runs: each finds what it exists to find.
describe("the upgrade drill's checks", () => {
  const run = [
    { action: 'acquire', table: 'regions', token: '7' },
    { action: 'save', table: 'regions', token: '7', rowId: 50_000 },
    { action: 'release', table: 'regions', token: '7' },
    { action: 'acquire', table: 'regions', token: '8' },
    { action: 'save', table: 'regions', token: '8', rowId: 50_001 },
  ] as const satisfies Acknowledgement[];

  it('finds an acknowledged save whose row is gone', () => {
    expect(lostSaves([...run], new Map([['regions', new Set([50_000, 50_001])]]))).toEqual([]);
    expect(lostSaves([...run], new Map([['regions', new Set([50_001])]]))).toEqual([
      'regions row 50000 (saved with token 7)',
    ]);
  });

  it('finds an acknowledged grant neither released nor still current', () => {
    expect(invalidGrants([...run], new Map([['regions', '8']]))).toEqual([]);
    expect(invalidGrants([...run], new Map([['regions', null]]))).toEqual([
      "regions token 8 (the table's grant: null)",
    ]);
  });

  it('counts cycles and the longest time without one within a window', () => {
    const ends = [5, 10, 30, 31, 90];
    expect(cyclesBetween(ends, 10, 31)).toBe(3);
    expect(longestPauseMs(ends, 0, 100)).toBe(59);
    expect(longestPauseMs([], 0, 100)).toBe(100);
  });
});
