import { poll } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireTableLockMutation } from './support/lockOperations';
import { type ReplicatedTestApi, startReplicatedTestApi } from './support/replicatedTestApi';
import { execute } from './support/testApi';

let setup: ReplicatedTestApi;

beforeAll(async () => {
  setup = await startReplicatedTestApi({ requireSyncReplica: true });
});

afterAll(async () => {
  await setup?.stop();
});

async function readiness() {
  const response = await fetch(`${setup.api.url}/readyz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function metric(name: string): Promise<string[]> {
  const text = await (await fetch(`${setup.api.url}/metrics`)).text();
  return text.split('\n').filter((line) => line.startsWith(name));
}

describe('with REQUIRE_SYNC_REPLICA', () => {
  it('reports the primary, its timeline and the synchronous standbys in /readyz and /metrics', async () => {
    const ready = await poll('both standbys in sync', 10_000, async () => {
      const answer = await readiness();
      const standbys = (answer.body.database as { synchronousStandbys?: unknown[] } | undefined)
        ?.synchronousStandbys;
      return standbys?.length === 2 ? answer : undefined;
    });
    expect(ready).toEqual({
      status: 200,
      body: {
        status: 'ready',
        database: {
          primary: true,
          timeline: 1,
          synchronousStandbys: [
            { name: 's1', inSync: true },
            { name: 's2', inSync: true },
          ],
        },
      },
    });
    expect(await metric('tablelock_database_primary ')).toEqual(['tablelock_database_primary 1']);
    expect(await metric('tablelock_database_timeline ')).toEqual(['tablelock_database_timeline 1']);
    expect(await metric('tablelock_synchronous_standbys_in_sync ')).toEqual([
      'tablelock_synchronous_standbys_in_sync 2',
    ]);
  });

  it('refuses lock changes while no synchronous standby is attached; reads go on', async () => {
    await setup.replicas.server('s1').stop();
    await setup.replicas.server('s2').stop();
    // Gone once the primary no longer lists them: a change asked before that would wait.
    await poll('no standby attached', 10_000, async () =>
      (await metric('tablelock_synchronous_standbys '))[0] === 'tablelock_synchronous_standbys 0'
        ? true
        : undefined,
    );
    const refused = await execute(setup.batch, acquireTableLockMutation, { table: 'regions' });
    expect(refused.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    expect(refused.data?.acquireTableLock ?? null).toBeNull();
    const notReady = await readiness();
    expect(notReady.status).toBe(503);
    expect(notReady.body.reason).toBe('no synchronous standby is attached');
    expect((await setup.batch.graphql('{ tables { name } }')).errors).toBeUndefined();
    const [row] = await setup.database.prisma.$queryRaw<{ status: string }[]>`
      SELECT status::text FROM tablelock.table_lock WHERE table_name = 'regions'`;
    expect(row?.status).toBe('normal');

    await setup.replicas.server('s1').start();
    const granted = await poll('the API grants again', 10_000, async () => {
      const answer = await execute(setup.batch, acquireTableLockMutation, { table: 'regions' });
      return answer.data?.acquireTableLock;
    });
    expect(granted.editor).toBe('key:nightly');
    expect((await readiness()).status).toBe(200);
    await setup.replicas.server('s2').start();
  });
});
