import { lockInvariantViolations } from '@tablelock/lock';
import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acquireByLegacyMutation, callLock, releaseByLegacyMutation } from './support/lockApi';
import { readRegistry } from './support/registry';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let racers: TestClient[];
let workers: TestClient[];

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  // Distinct principals, so that every lock records who won it. One after another: 62
  // transactions at once can outwait Prisma's 2 s for a connection on a busy machine.
  racers = await keys('racer', 50);
  workers = await keys('worker', 12);
}, 60_000);

async function keys(prefix: string, count: number): Promise<TestClient[]> {
  const clients: TestClient[] = [];
  for (let i = 0; i < count; i++) clients.push(await api.withApiKey(`${prefix}-${i}`, 'editor'));
  return clients;
}
afterAll(async () => {
  await api.stop();
  await database.close();
});
beforeEach(() => resetLockRegistry(database.prisma));

/** The holder's release: it never loses to someone else being busy (no retry, ever). */
async function releaseAsHolder(client: TestClient, table: string): Promise<void> {
  const result = await releaseByLegacyMutation(client, table);
  if (!result.lock_result) {
    throw new Error(`${client.name}'s release of ${table} was refused (${result.current_status})`);
  }
}

describe('races', () => {
  it('50 parallel requests for one table: exactly one winner per round, 20 rounds', async () => {
    for (let round = 0; round < 20; round++) {
      const responses = await Promise.all(
        racers.map((racer) =>
          callLock(racer, {
            table_name: 'products',
            current_status: 'normal',
            target_status: 'editing',
            fk_table_name: ['suppliers'],
            fk_current_status: 'normal',
            fk_target_status: 'locked',
            editor: racer.name ?? undefined,
          }),
        ),
      );
      expect(responses.flatMap((response) => response.errors ?? [])).toEqual([]);
      const winners = racers.filter(
        (_, i) => responses[i]?.data?.UpdateTableStatusWithLock?.lock_result,
      );
      expect(winners).toHaveLength(1);
      const [winner] = winners as [TestClient];
      const registry = await readRegistry(database.prisma);
      expect(registry.get('products')).toMatchObject({ status: 'editing', editor: winner.name });
      expect(lockInvariantViolations(registry)).toEqual([]);
      await releaseAsHolder(winner, 'products');
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
    // Rounds, not a time window: the race goes on until it has made GRANTS grants and the
    // registry was read SAMPLES times meanwhile, however slowly a busy machine lets it (in 4 s
    // on the clock, a loaded run once made 16 grants).
    const GRANTS = 100;
    const SAMPLES = 30;
    const violations: string[] = [];
    let samples = 0;
    let grants = 0;
    const raced = () => grants >= GRANTS && samples >= SAMPLES;

    async function sampler() {
      while (!raced()) {
        violations.push(...lockInvariantViolations(await readRegistry(database.prisma)));
        samples++;
      }
    }
    async function worker(client: TestClient, id: number) {
      let turn = 0;
      while (!raced()) {
        const table = tables[(id * 7 + turn++) % tables.length] as string;
        const result = await acquireByLegacyMutation(client, table);
        if (result.lock_result) {
          grants++;
          await releaseAsHolder(client, table);
        }
      }
    }

    await Promise.all([sampler(), ...workers.map((client, id) => worker(client, id))]);

    expect(violations).toEqual([]);
    const registry = await readRegistry(database.prisma);
    expect(lockInvariantViolations(registry)).toEqual([]);
    expect([...registry.values()].filter((row) => row.status !== 'normal')).toEqual([]);
  });
});
