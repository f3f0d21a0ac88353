import { type PostgresServer, poll } from '@tablelock/test-support';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireTableLockMutation, releaseTableLockMutation } from './support/lockOperations';
import { type ReplicatedTestApi, startReplicatedTestApi } from './support/replicatedTestApi';
import { execute } from './support/testApi';

let setup: ReplicatedTestApi;

beforeAll(async () => {
  setup = await startReplicatedTestApi();
});

afterAll(async () => {
  await setup?.stop();
});

async function onServer<T>(server: PostgresServer, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: server.url('tablelock') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function acquire(table: string): Promise<string> {
  const answer = await execute(setup.batch, acquireTableLockMutation, { table });
  const token = answer.data?.acquireTableLock.token;
  if (!token) throw new Error(`no grant: ${JSON.stringify(answer.errors)}`);
  return token;
}

describe('fencing tokens across a promotion', () => {
  it('rise past every token the lost primary handed out, and the history records each as handed out', async () => {
    const [p0, s1, s2] = setup.replicas.servers as [PostgresServer, PostgresServer, PostgresServer];
    const before = await acquire('regions');
    expect(
      (await execute(setup.batch, releaseTableLockMutation, { table: 'regions', token: before }))
        .errors,
    ).toBeUndefined();

    // The old primary hands out tokens no standby hears of: grants lost with it. Many (taken
    // straight from the sequence, as 100 grants would), then one through the API.
    await s1.stop();
    await s2.stop();
    await onServer(p0, async (client) => {
      await client.query('BEGIN');
      await client.query('SET LOCAL synchronous_commit = local');
      await client.query(
        `SELECT nextval('tablelock.fencing_token_seq') FROM generate_series(1, 100)`,
      );
      await client.query('COMMIT');
    });
    const lost = execute(setup.batch, acquireTableLockMutation, {
      table: 'currencies',
      key: 'take-currencies',
    });
    await setup.replicas.cancelCommitWaitingForStandby(p0);
    expect((await lost).errors?.[0]?.extensions?.code).toBe('OUTCOME_UNKNOWN');
    const lastLost = await onServer(p0, async (client) => {
      const { rows } = await client.query<{ token: string }>(
        `SELECT fencing_token::text AS token FROM tablelock.table_lock WHERE table_name = 'currencies'`,
      );
      return BigInt(rows[0]?.token ?? Number.NaN);
    });

    await p0.kill();
    await s1.start();
    await s2.start();
    await setup.replicas.failOver([s1, s2]);

    // The API finds the new primary on its own (its pool asks every server listed). The lost
    // grant is not there: the retry with its key acquires anew.
    const after = await poll('a grant on the new primary', 20_000, async () => {
      const answer = await execute(setup.batch, acquireTableLockMutation, {
        table: 'currencies',
        key: 'take-currencies',
      });
      return answer.data?.acquireTableLock.token;
    });
    expect(BigInt(after)).toBeGreaterThan(lastLost);
    expect(BigInt(after)).toBeGreaterThan(BigInt(before));
    const events = await setup.database.prisma.lockEvent.findMany({
      where: { action: 'acquire' },
      orderBy: { id: 'asc' },
      select: { tableName: true, token: true },
    });
    expect(events.map((event) => [event.tableName, event.token?.toString()])).toEqual([
      ['regions', before],
      ['currencies', after],
    ]);
  });
});
