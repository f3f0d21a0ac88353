import { createApiKey } from '@tablelock/identity';
import { lockInvariantViolations } from '@tablelock/lock';
import {
  type ApiProcess,
  createTestDatabase,
  resetLockRegistry,
  stopApiProcess,
  TEST_AUDIT,
  type TestDatabase,
  twoPorts,
} from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWithKey } from './callWithKey';
import { revokeApiKeyMutation, tableNamesQuery } from './identityOperations';
import { subscribeLockChanges } from './lockChanges';
import { acquireTableLockMutation, granted, releaseTableLockMutation } from './lockOperations';
import { postGraphql } from './postGraphql';
import { readRegistry } from './registry';

/**
 * Starts API processes A and B (on `ports`) against `database`, each through startApiProcess
 * with `started` so that the suite stops them whatever happens.
 */
export type StartTwoApiProcesses = (
  database: TestDatabase,
  ports: [number, number],
  started: ApiProcess[],
) => Promise<[ApiProcess, ApiProcess]>;

const RACERS = 40;
const ROUNDS = 5;

/**
 * What several API instances on one database must get right together: a lock change made
 * through one reaches subscribers of the other, and a race for one table across both has
 * exactly one winner. `start` decides how the processes reach the database.
 */
export function describeTwoApiProcesses(title: string, start: StartTwoApiProcesses): void {
  let database: TestDatabase;
  const processes: ApiProcess[] = [];
  let a: ApiProcess;
  let b: ApiProcess;
  let racers: { name: string; secret: string }[];
  let watcherSecret: string;
  let moverSecret: string;

  async function newKey(name: string, role: 'viewer' | 'editor' | 'admin'): Promise<string> {
    return (await createApiKey(database.prisma, { name, role }, TEST_AUDIT)).secret;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    // DATABASE_URL mode loads no demo data; the test database copy has it, and its registry.
    [a, b] = await start(database, await twoPorts(), processes);
    // One after another: 40 transactions at once can outwait Prisma's 2 s for a connection
    // from the test's pool of 10 on a busy machine.
    racers = [];
    for (let i = 0; i < RACERS; i++) {
      racers.push({ name: `key:racer-${i}`, secret: await newKey(`racer-${i}`, 'editor') });
    }
    watcherSecret = await newKey('watcher', 'viewer');
    moverSecret = await newKey('mover', 'editor');
  }, 60_000);

  afterAll(async () => {
    await Promise.all(processes.map(stopApiProcess));
    for (const api of processes) {
      expect(api.child.exitCode !== null || api.child.signalCode !== null, api.name).toBe(true);
    }
    await database?.close();
  });

  describe(title, () => {
    it('a subscriber on A sees a lock taken and released through B', async () => {
      await resetLockRegistry(database.prisma);
      const changes = await subscribeLockChanges({
        url: a.url,
        connectionParams: { authorization: `Bearer ${watcherSecret}` },
        prisma: database.prisma,
      });
      try {
        const acquired = await callWithKey(b, moverSecret, acquireTableLockMutation, {
          table: 'warehouses',
        });
        const grant = granted(acquired, 'acquireTableLock', 'mover acquiring warehouses via B');
        const seen = await changes.waitFor(
          (change) => change.table === 'warehouses' && change.action === 'acquire',
          5_000,
        );
        // The watcher is a viewer: B's event reaches it without the holder's token.
        expect(seen).toMatchObject({ actor: 'key:mover', editor: 'key:mover', token: null });

        const released = await callWithKey(b, moverSecret, releaseTableLockMutation, {
          table: 'warehouses',
          token: grant.token,
        });
        expect(released.errors).toBeUndefined();
        const release = await changes.waitFor(
          (change) => change.table === 'warehouses' && change.action === 'release',
          5_000,
        );
        expect(release).toMatchObject({ actor: 'key:mover', token: null });
      } finally {
        await changes.close();
      }
    });

    // Each process keeps the credentials it resolved for a while: a change made through one
    // process must end them on the other as well, before anyone can use them there again.
    it('a key revoked through A is refused at once by B, which had just accepted it', async () => {
      const secret = await newKey('short-lived', 'editor');
      const adminSecret = await newKey('key-admin', 'admin');
      for (const api of [a, b, b]) {
        expect((await callWithKey(api, secret, tableNamesQuery, {})).errors).toBeUndefined();
      }

      const revoked = await callWithKey(a, adminSecret, revokeApiKeyMutation, {
        name: 'short-lived',
      });
      expect(revoked.errors).toBeUndefined();
      for (const api of [b, a]) {
        const refused = await callWithKey(api, secret, tableNamesQuery, {});
        expect(refused.errors?.[0]?.extensions?.code, api.name).toBe('UNAUTHENTICATED');
      }
    });

    it('a session ended through A is refused at once by B, which had just accepted it', async () => {
      const login = await postGraphql(
        a.url,
        {},
        'mutation { login(username: "carol", password: "tablelock-demo") { name } }',
      );
      const cookie = login.setCookies.find((line) => line.startsWith('tablelock_session='));
      if (!cookie) throw new Error(`no session cookie: ${JSON.stringify(login.body)}`);
      const session = { cookie: cookie.split(';')[0] ?? '' };
      const tables = tableNamesQuery.toString();
      for (const api of [b, b]) {
        expect((await postGraphql(api.url, session, tables)).body.errors).toBeUndefined();
      }

      const logout = await postGraphql(a.url, session, 'mutation { logout }');
      expect(logout.body.data).toEqual({ logout: true });
      const refused = await postGraphql(b.url, session, tables);
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    });

    it(`a race for one table across both processes has exactly one winner (${ROUNDS} rounds of ${RACERS})`, async () => {
      await resetLockRegistry(database.prisma);
      for (let round = 0; round < ROUNDS; round++) {
        const via = (i: number) => ((i + round) % 2 === 0 ? a : b);
        const [before] = await database.prisma.$queryRaw<{ id: bigint }[]>`
          SELECT coalesce(max(id), 0) AS id FROM tablelock.lock_event`;
        const responses = await Promise.all(
          racers.map((racer, i) =>
            callWithKey(via(i), racer.secret, acquireTableLockMutation, { table: 'products' }),
          ),
        );

        const winners = racers.flatMap((racer, i) => {
          const grant = responses[i]?.data?.acquireTableLock;
          return grant ? [{ racer, grant, i }] : [];
        });
        expect(winners, `round ${round}`).toHaveLength(1);
        const codes = responses.flatMap((response) =>
          (response.errors ?? []).map((error) => error.extensions?.code),
        );
        expect(codes, `round ${round}`).toEqual(Array(RACERS - 1).fill('LOCK_CONFLICT'));
        const [{ racer, grant, i }] = winners as [(typeof winners)[number]];
        expect(grant.editor).toBe(racer.name);

        const registry = await readRegistry(database.prisma);
        expect(registry.get('products')).toMatchObject({ status: 'editing', editor: racer.name });
        expect(lockInvariantViolations(registry)).toEqual([]);
        const events = await database.prisma.$queryRaw<{ action: string; count: number }[]>`
          SELECT action::text AS action, count(*)::int AS count FROM tablelock.lock_event
          WHERE table_name = 'products' AND id > ${before?.id ?? 0n}
          GROUP BY action ORDER BY action`;
        expect(events, `round ${round}`).toEqual([
          { action: 'acquire', count: 1 },
          { action: 'denied', count: RACERS - 1 },
        ]);

        // Released through the process the winner did not use.
        const released = await callWithKey(via(i + 1), racer.secret, releaseTableLockMutation, {
          table: 'products',
          token: grant.token,
        });
        expect(released.errors, `round ${round}`).toBeUndefined();
      }
      const registry = await readRegistry(database.prisma);
      expect([...registry.values()].filter((row) => row.status !== 'normal')).toEqual([]);
    });
  });
}
