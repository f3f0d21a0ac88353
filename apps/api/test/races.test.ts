import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acquire, callLock, release } from './support/lockApi';
import { lockInvariantViolations, readRegistry, resetRegistry } from './support/registry';
import { startTestApi, type TestApi } from './support/testApi';

let database: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
});
afterAll(async () => {
  await api.stop();
  await database.close();
});
beforeEach(() => resetRegistry(database.prisma));

/** A release loses (false) while another transaction holds a row it needs: retry it then. */
async function releaseUntilDone(table: string, editor: string): Promise<void> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const result = await release(api, table, editor);
    if (result.lock_result) return;
    if (result.current_status !== 'editing') throw new Error(`${table} was not held by ${editor}`);
  }
  throw new Error(`could not release ${table}`);
}

describe('races', () => {
  it('50 parallel requests for one table: exactly one winner per round, 20 rounds', async () => {
    for (let round = 0; round < 20; round++) {
      const editors = Array.from({ length: 50 }, (_, i) => `racer-${round}-${i}`);
      const responses = await Promise.all(
        editors.map((editor) =>
          callLock(api, {
            table_name: 'products',
            current_status: 'normal',
            target_status: 'editing',
            fk_table_name: ['suppliers'],
            fk_current_status: 'normal',
            fk_target_status: 'locked',
            editor,
          }),
        ),
      );
      expect(responses.flatMap((response) => response.errors ?? [])).toEqual([]);
      const winners = editors.filter(
        (_, i) => responses[i]?.data?.UpdateTableStatusWithLock?.lock_result,
      );
      expect(winners).toHaveLength(1);
      const registry = await readRegistry(database.prisma);
      expect(registry.get('products')).toMatchObject({ status: 'editing', editor: winners[0] });
      expect(lockInvariantViolations(registry)).toEqual([]);
      await releaseUntilDone('products', winners[0] as string);
    }
    const registry = await readRegistry(database.prisma);
    expect([...registry.values()].filter((row) => row.status !== 'normal')).toEqual([]);
  });

  it('overlapping acquire/release on tables sharing FK targets keeps the invariants', async () => {
    // Shared targets: currencies (products, suppliers, price_lists), regions (suppliers,
    // customers, warehouses), products (price_list_items, stock_levels), ...
    const tables = [
      'products',
      'suppliers',
      'price_lists',
      'customers',
      'warehouses',
      'price_list_items',
      'stock_levels',
      'currencies',
      'regions',
    ];
    const deadline = Date.now() + 4_000;
    const violations: string[] = [];
    let samples = 0;
    let grants = 0;

    async function sampler() {
      while (Date.now() < deadline) {
        violations.push(...lockInvariantViolations(await readRegistry(database.prisma)));
        samples++;
      }
    }
    async function worker(id: number) {
      let turn = 0;
      while (Date.now() < deadline) {
        const table = tables[(id * 7 + turn++) % tables.length] as string;
        const editor = `worker-${id}`;
        const result = await acquire(api, table, editor);
        if (result.lock_result) {
          grants++;
          await releaseUntilDone(table, editor);
        }
      }
    }

    await Promise.all([sampler(), ...Array.from({ length: 12 }, (_, id) => worker(id))]);

    expect(violations).toEqual([]);
    expect(samples).toBeGreaterThan(10);
    expect(grants).toBeGreaterThan(20);
    const registry = await readRegistry(database.prisma);
    expect(lockInvariantViolations(registry)).toEqual([]);
    expect([...registry.values()].filter((row) => row.status !== 'normal')).toEqual([]);
  });
});
