import { type PostgresServer, poll } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProbe, type LiveSocket, openLiveSocket, probeUntil } from './support/liveSocket';
import { acquireTableLockMutation } from './support/lockOperations';
import { type ReplicatedTestApi, startReplicatedTestApi } from './support/replicatedTestApi';
import { execute } from './support/testApi';

/** What the issue asks of every API process after a failover. */
const RECONNECT_WITHIN_MS = 10_000;
const LOCK_CHANGED = 'subscription { lockChanged { table action actor } }';

let setup: ReplicatedTestApi;
const sockets: LiveSocket[] = [];

beforeAll(async () => {
  setup = await startReplicatedTestApi();
});

afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.dispose()));
  await setup?.stop();
});

/** A live client whose lockChanged subscription is known to be heard (a probe came back). */
async function watch() {
  const socket = openLiveSocket({
    url: setup.api.url,
    connectionParams: { authorization: setup.batch.headers.authorization },
  });
  sockets.push(socket);
  const subscription = socket.subscribe(LOCK_CHANGED);
  await probeUntil(setup.database.prisma, () => subscription.messages.some(isProbe));
  return { socket, subscription };
}

describe('after a failover', () => {
  it('the API listens and serves on the promoted standby within 10 s, and its live clients refresh', async () => {
    const [p0, s1, s2] = setup.replicas.servers as [PostgresServer, PostgresServer, PostgresServer];
    const before = await watch();

    await p0.kill();
    await setup.replicas.failOver([s1, s2]);

    // Changes made meanwhile reached no one: live clients are told to reconnect and refetch.
    const closed = await Promise.race([
      before.socket.closed,
      new Promise<undefined>((resolve) =>
        setTimeout(() => resolve(undefined), RECONNECT_WITHIN_MS).unref(),
      ),
    ]);
    expect(closed).toMatchObject({ code: 1012 });
    const ready = await poll('ready on the new primary', RECONNECT_WITHIN_MS, async () => {
      const response = await fetch(`${setup.api.url}/readyz`);
      const body = (await response.json()) as { database?: { timeline?: number } };
      return response.ok && body.database?.timeline === 2 ? body : undefined;
    });
    expect(ready).toMatchObject({ status: 'ready', database: { primary: true, timeline: 2 } });

    const after = await watch();
    const granted = await execute(setup.batch, acquireTableLockMutation, { table: 'regions' });
    expect(granted.errors).toBeUndefined();
    await after.subscription.waitFor(
      (message) =>
        'next' in message &&
        JSON.stringify(message.next.lockChanged) ===
          JSON.stringify({ table: 'regions', action: 'acquire', actor: 'key:nightly' }),
    );
  });
});
