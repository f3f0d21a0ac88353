import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireTableLockAs,
  forceReleaseMutation,
  granted,
  refusal,
  saveRowsMutation,
  takeOverTableLockMutation,
} from './support/lockOperations';
import { rowCount } from './support/masterRows';
import { readRegistry } from './support/registry';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let bob: TestClient;
let admin: TestClient;

async function logInEveryone() {
  [alice, bob, admin] = await Promise.all([
    api.loginAs('alice'),
    api.loginAs('bob'),
    api.loginAs('admin'),
  ]);
}

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  await logInEveryone();
});
afterAll(async () => {
  await api.stop();
  await database.close();
});
beforeEach(() => resetLockRegistry(database.prisma));

describe('fencing tokens', () => {
  it('strictly increase over acquisitions and take-overs, and across an API restart', async () => {
    const grants = [
      await acquireTableLockAs(alice, 'currencies'),
      await acquireTableLockAs(bob, 'regions'),
      await acquireTableLockAs(admin, 'categories'),
      granted(
        await execute(alice, takeOverTableLockMutation, {
          table: 'currencies',
          reason: 'second tab',
        }),
        'takeOverTableLock',
        'alice taking over currencies',
      ),
      await acquireTableLockAs(bob, 'stock_levels'),
    ];
    const tokens = grants.map((grant) => BigInt(grant.token));
    for (const [i, token] of tokens.entries()) {
      if (i > 0) expect(token).toBeGreaterThan(tokens[i - 1] as bigint);
    }

    await api.stop();
    api = await startTestApi(database);
    await logInEveryone();
    await resetLockRegistry(database.prisma);
    const afterRestart = await acquireTableLockAs(bob, 'suppliers');
    expect(BigInt(afterRestart.token)).toBeGreaterThan(tokens.at(-1) as bigint);
  });
});

describe('force-release racing saves', () => {
  it('a save either commits before the release or fails with LOCK_LOST and writes nothing', async () => {
    const ROUNDS = 40;
    const outcomes = { savedFirst: 0, lost: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const grant = await acquireTableLockAs(alice, 'categories');
      const id = String(5000 + round);
      const save = () =>
        execute(alice, saveRowsMutation, {
          table: 'categories',
          token: grant.token,
          changes: { inserts: [{ values: { id, name: `race marker ${round}` } }] },
        });
      const forceRelease = () =>
        execute(admin, forceReleaseMutation, {
          table: 'categories',
          reason: `race round ${round}`,
        });
      // Alternate which request leaves first, so neither side is always ahead.
      const [saved, released] =
        round % 2 === 0
          ? await Promise.all([save(), forceRelease()])
          : await Promise.all([forceRelease(), save()]).then(([r, s]) => [s, r] as const);

      expect(released.errors, `round ${round}`).toBeUndefined();
      const events = await database.prisma.$queryRaw<{ id: bigint; action: string }[]>`
        SELECT id, action::text AS action FROM tablelock.lock_event
        WHERE table_name = 'categories' AND token = ${grant.token}::bigint
          AND action IN ('save', 'force_release')
        ORDER BY id`;
      const forced = events.filter((event) => event.action === 'force_release');
      const saves = events.filter((event) => event.action === 'save');
      expect(forced, `round ${round}`).toHaveLength(1);
      const marker = await rowCount(database.prisma, 'categories', id);
      if (saved.data?.saveRows?.saved) {
        outcomes.savedFirst++;
        expect(saved.data.saveRows.inserted).toBe(1);
        expect(saves, `round ${round}`).toHaveLength(1);
        expect(saves[0]?.id, `round ${round}`).toBeLessThan(forced[0]?.id as bigint);
        expect(marker, `round ${round}`).toBe(1);
      } else {
        outcomes.lost++;
        expect(refusal(saved), `round ${round}`).toMatchObject({ code: 'LOCK_LOST' });
        expect(refusal(saved).message).toContain('admin force-released your lock on categories');
        expect(saves, `round ${round}`).toEqual([]);
        expect(marker, `round ${round}`).toBe(0);
      }
    }
    expect(outcomes.savedFirst + outcomes.lost).toBe(ROUNDS);
    expect((await readRegistry(database.prisma)).get('categories')?.status).toBe('normal');
  });
});
