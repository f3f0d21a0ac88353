import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll } from '../src/poll';
import type { PostgresServer } from '../src/postgresServer';
import { type ReplicaSet, startReplicaSet } from '../src/replicaSet';

let replicas: ReplicaSet;

beforeAll(async () => {
  replicas = await startReplicaSet();
  await query(replicas.server('p0'), 'CREATE TABLE note (text text PRIMARY KEY)');
});

afterAll(async () => {
  await replicas?.close();
});

async function query<Row extends object>(
  server: PostgresServer,
  sql: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: server.url() });
  await client.connect();
  try {
    return (await client.query<Row>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

const notes = async (server: PostgresServer) =>
  (await query<{ text: string }>(server, 'SELECT text FROM note ORDER BY text')).map(
    (row) => row.text,
  );

const inRecovery = async (server: PostgresServer) =>
  (await query<{ recovery: boolean }>(server, 'SELECT pg_is_in_recovery() AS recovery'))[0]
    ?.recovery;

describe('a primary and two synchronous standbys', () => {
  it('come up with the standbys in recovery, streaming what the primary commits', async () => {
    const [primary, s1, s2] = replicas.servers as [PostgresServer, PostgresServer, PostgresServer];
    expect(await inRecovery(primary)).toBe(false);
    expect(await inRecovery(s1)).toBe(true);
    expect(await inRecovery(s2)).toBe(true);
    await query(primary, `INSERT INTO note VALUES ('first')`);
    // With `ANY 1`, one standby may not have replayed even the table yet: not there yet.
    for (const standby of [s1, s2]) {
      await poll(`${standby.name} has the row`, 10_000, async () =>
        (await notes(standby).catch((): string[] => [])).includes('first') ? true : undefined,
      );
    }
  });

  it('holds a commit until a synchronous standby has it', async () => {
    const primary = replicas.server('p0');
    await replicas.server('s1').stop();
    await replicas.server('s2').stop();
    const client = new pg.Client({ connectionString: primary.url() });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const backend = rows[0]?.pid;
      const commit = client.query(`INSERT INTO note VALUES ('waited')`);
      await poll('the commit waits for a standby', 10_000, async () => {
        const [row] = await query<{ wait_event: string | null }>(
          primary,
          'SELECT wait_event FROM pg_stat_activity WHERE pid = $1',
          [backend],
        );
        return row?.wait_event === 'SyncRep' ? true : undefined;
      });
      await replicas.server('s1').start();
      await commit;
      expect(await notes(replicas.server('s1'))).toContain('waited');
    } finally {
      await client.end();
    }
    await replicas.server('s2').start();
  });

  it('promotes a standby after the primary is killed; the other standby follows it', async () => {
    const [primary, s1, s2] = replicas.servers as [PostgresServer, PostgresServer, PostgresServer];
    const pid = primary.pid();
    expect(await replicas.timeline(primary)).toBe(1);
    await primary.kill();
    expect(primary.pid()).toBeUndefined();
    expect(() => process.kill(pid ?? 0, 0)).toThrow();

    await replicas.promote(s1);
    expect(await inRecovery(s1)).toBe(false);
    expect(await replicas.timeline(s1)).toBe(2);
    await replicas.follow(s2, s1);
    // s1 names s2 as its synchronous standby: this commit returns once s2 follows.
    await query(s1, `INSERT INTO note VALUES ('after promotion')`);
    expect(await notes(s2)).toEqual(['after promotion', 'first', 'waited']);
    expect(await replicas.timeline(s2)).toBe(2);
  });
});
