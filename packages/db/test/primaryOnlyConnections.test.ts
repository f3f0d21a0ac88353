import {
  type PostgresServer,
  poll,
  type ReplicaSet,
  startReplicaSet,
} from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionPoolUsage, createPrismaClient, databaseClient, type PrismaClient } from '../src';

let replicas: ReplicaSet;
let p0: PostgresServer;
let s1: PostgresServer;
let s2: PostgresServer;
const clients: PrismaClient[] = [];
const notices: string[] = [];

beforeAll(async () => {
  replicas = await startReplicaSet();
  [p0, s1, s2] = replicas.servers as [PostgresServer, PostgresServer, PostgresServer];
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.$disconnect()));
  await replicas?.close();
});

/** The URL with the servers in this order (each order is a process's own view of them). */
function urlListing(...servers: PostgresServer[]): string {
  const hosts = servers.map((server) => `127.0.0.1:${server.port}`).join(',');
  return `postgresql://postgres@${hosts}/postgres?target_session_attrs=read-write`;
}

function pooledClient(url: string): PrismaClient {
  const client = createPrismaClient(url, {
    poolSize: 2,
    onNotice: (message) => notices.push(message),
  });
  clients.push(client);
  return client;
}

async function serverPort(client: PrismaClient): Promise<number> {
  const [row] = await client.$queryRaw<{ port: number }[]>`SELECT inet_server_port() AS port`;
  return Number(row?.port);
}

async function listenerPort(url: string): Promise<number> {
  const client = databaseClient(url, { onNotice: (message) => notices.push(message) });
  await client.connect();
  try {
    const { rows } = await client.query<{ port: number }>('SELECT inet_server_port() AS port');
    return Number(rows[0]?.port);
  } finally {
    await client.end();
  }
}

/**
 * Ends every session of clients on `server`: the connections a process holds there break. Waits
 * until each session's backend has exited, so its last word (57P01) has reached the client and
 * its pool has dropped the connection: sent a query before, the connection would answer that
 * error instead.
 */
async function breakConnections(server: PostgresServer): Promise<void> {
  const client = databaseClient(server.url());
  await client.connect();
  await client.query(`SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity
    WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`);
  await client.end();
}

describe('a URL listing several servers, primary only', () => {
  it('connects the pool and the LISTEN client to the primary, whatever its place in the list', async () => {
    const url = urlListing(s1, s2, p0);
    expect(await serverPort(pooledClient(url))).toBe(p0.port);
    expect(await listenerPort(url)).toBe(p0.port);
    const standbyNotices = notices.filter((notice) => notice.includes('is a standby'));
    expect(standbyNotices).toEqual([
      `Database server 127.0.0.1:${s1.port} is a standby: not used.`,
      `Database server 127.0.0.1:${s2.port} is a standby: not used.`,
    ]);
  });

  it('waits through a failover: with no primary, it asks again until a standby is promoted', async () => {
    const pool = pooledClient(urlListing(p0, s1, s2));
    expect(await serverPort(pool)).toBe(p0.port);
    // A process whose every connection to the old primary had ended cleanly: no error told it.
    const quietUrl = urlListing(p0, s2, s1);
    expect(await listenerPort(quietUrl)).toBe(p0.port);
    await p0.kill();
    // The pool hears that its connection to p0 ended when it reads the socket's close. A query
    // sent before that goes down the dead connection (Connection terminated unexpectedly), as
    // any query in flight when a primary dies does; sent after, it asks the servers again.
    await poll('the pool drops its connection to p0', 10_000, async () =>
      connectionPoolUsage(pool)?.idle === 0 ? true : undefined,
    );
    const port = serverPort(pool);
    await replicas.promote(s1);
    await replicas.follow(s2, s1);
    expect(await port).toBe(s1.port);
    expect(notices).toContain(`Database primary is 127.0.0.1:${s1.port} on timeline 2.`);
    expect(await listenerPort(quietUrl)).toBe(s1.port);
  });

  it('refuses an old primary back on an older timeline, and logs that once', async () => {
    await p0.start();
    expect(await replicas.timeline(p0)).toBe(1);
    const url = urlListing(p0, s1, s2);
    const pool = pooledClient(url);
    expect(await serverPort(pool)).toBe(s1.port);
    await breakConnections(s1);
    expect(await serverPort(pool)).toBe(s1.port);
    expect(await listenerPort(url)).toBe(s1.port);
    const refused = `Database server 127.0.0.1:${p0.port} is a primary on timeline 1, behind timeline 2: not used.`;
    expect(notices.filter((notice) => notice === refused)).toHaveLength(1);
  });

  it('leaves a single-host URL as it was: to that server, whatever it is', async () => {
    expect(await serverPort(pooledClient(s2.url()))).toBe(s2.port);
  });
});
