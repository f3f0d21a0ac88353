import { lockInvariantViolations } from '@tablelock/lock';
import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freezeTablesMutation } from './support/governanceOperations';
import {
  acquireTableLockMutation,
  refusal,
  releaseTableLockMutation,
} from './support/lockOperations';
import { readRegistry } from './support/registry';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let workers: TestClient[];
let admin: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  workers = await Promise.all(
    Array.from({ length: 16 }, (_, i) => api.withApiKey(`freeze-racer-${i}`, 'editor')),
  );
  admin = await api.loginAs('admin');
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const FROZEN = ['customers', 'price_lists', 'products', 'suppliers', 'warehouses'];
const OTHERS = ['categories', 'currencies', 'regions', 'stock_levels', 'price_list_items'];
const TABLES = [...FROZEN, ...OTHERS];
/** Every worker's table turns once the freeze has committed: each meets frozen tables and others. */
const ROUNDS_AFTER_FREEZE = TABLES.length;

describe('freeze race', () => {
  it('nothing is acquired after the freeze commits, whatever was in flight', async () => {
    let freezing = false;
    let frozenCommitted = false;
    const codes = new Map<string, number>();

    async function worker(client: TestClient, id: number) {
      let turn = 0;
      // Rounds, not a time window: each worker goes on for a few tables after the freeze has
      // committed, however slowly a busy machine lets it get there.
      let turnsAfterFreeze = 0;
      while (turnsAfterFreeze < ROUNDS_AFTER_FREEZE) {
        if (frozenCommitted) turnsAfterFreeze++;
        const table = TABLES[(id * 3 + turn++) % TABLES.length] as string;
        // Some wait in line (row locks waited for), most take or fail at once.
        const wait = id % 4 === 0 ? 1 : undefined;
        const response = await execute(client, acquireTableLockMutation, { table, wait });
        const grant = response.data?.acquireTableLock;
        if (!grant) {
          const code = refusal(response).code ?? 'none';
          codes.set(code, (codes.get(code) ?? 0) + 1);
          continue;
        }
        const released = await execute(client, releaseTableLockMutation, {
          table,
          token: grant.token,
        });
        if (released.errors) throw new Error(JSON.stringify(released.errors));
      }
    }

    const running = Promise.all(workers.map((client, id) => worker(client, id)));
    // Let the acquisitions get going, then freeze in the middle of them.
    while ((await database.prisma.lockEvent.count({ where: { action: 'acquire' } })) < 40) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    freezing = true;
    const frozen = await execute(admin, freezeTablesMutation, {
      tables: FROZEN,
      reason: 'race',
      rule: 'waitForHolders',
    });
    expect(frozen.errors).toBeUndefined();
    frozenCommitted = true;
    await running;
    expect(freezing).toBe(true);

    const events = await database.prisma.lockEvent.findMany({
      where: { action: { in: ['acquire', 'freeze'] } },
      select: { id: true, action: true, tableName: true },
    });
    for (const table of FROZEN) {
      const ofTable = events.filter((event) => event.tableName === table);
      const freeze = ofTable.find((event) => event.action === 'freeze');
      expect(freeze, table).toBeDefined();
      const later = ofTable.filter(
        (event) => event.action === 'acquire' && event.id > (freeze?.id ?? 0n),
      );
      expect(later, `${table} acquired after its freeze`).toEqual([]);
    }
    // The race was live: frozen tables were taken before, others after the freeze.
    const freezeId = events.find((event) => event.action === 'freeze')?.id ?? 0n;
    const acquired = (tables: string[], after: boolean) =>
      events.filter(
        (event) =>
          event.action === 'acquire' &&
          tables.includes(event.tableName) &&
          event.id > freezeId === after,
      ).length;
    expect(acquired(FROZEN, false)).toBeGreaterThan(0);
    expect(acquired(OTHERS, true)).toBeGreaterThan(0);
    expect(codes.get('TABLE_FROZEN') ?? 0).toBeGreaterThan(0);

    const registry = await readRegistry(database.prisma);
    expect(lockInvariantViolations(registry)).toEqual([]);
    expect([...registry.values()].filter((row) => row.status !== 'normal')).toEqual([]);
  });
});
