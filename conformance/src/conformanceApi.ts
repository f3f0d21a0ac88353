import {
  type ApiProcess,
  createTestApiKey,
  createTestDatabase,
  freePort,
  type PostgresServer,
  type ReplicatedDatabase,
  resetLockRegistry,
  startApiProcess,
  startReplicatedDatabase,
  stopApiProcess,
  type TestDatabase,
} from '@tablelock/test-support';
import { startTcpRelay, type TcpRelay } from './tcpRelay';

/**
 * The API keys every scenario may use, by name (`${keys.<name>}`): their roles, and the demo
 * users who made them. A key stands for the person who made it: the admin's may approve the
 * etl key's change requests (made by bob), as four-eyes asks.
 */
const KEYS = {
  etl: { role: 'editor', madeBy: 'bob' },
  rival: { role: 'editor', madeBy: 'alice' },
  viewer: { role: 'viewer', madeBy: 'alice' },
  admin: { role: 'admin', madeBy: 'admin' },
} as const;
export type KeyName = keyof typeof KEYS;

/**
 * The shortest lease the kit's API accepts (LEASE_MIN_SECONDS; 15 s in production): renewals,
 * every third of a lease, come within seconds.
 */
const API_SETTINGS = { LEASE_MIN_SECONDS: '5' };

/** One compiled API process on a database of its own, reached by clients through a relay. */
export interface ConformanceApi {
  readonly database: TestDatabase;
  readonly relay: TcpRelay;
  /** Where clients call: the relay. */
  readonly url: string;
  /** Where the harness calls: the API itself. */
  readonly directUrl: string;
  readonly keys: Record<KeyName, string>;
  /** Stops the API (SIGTERM, as a rolling restart does) and starts it again on its port. */
  restart(): Promise<void>;
  /** Kills the API (SIGKILL): no graceful end, its connections just break. */
  kill(): Promise<void>;
  /** Starts the API again after `kill`. */
  start(): Promise<void>;
  /**
   * Kills the database's primary and promotes the standby that has the most of it (only on a
   * replicated database, see `replicated`): the API finds the new primary by itself.
   */
  failOver(): Promise<void>;
  /**
   * No locks, nobody in line, no policy, no lock history; the relay without cuts: the start of a
   * scenario.
   */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `replicated`: the database on a primary and two synchronous standbys (the failover harness's
 * replica set), for scenarios that fail it over; else a database of the run's embedded Postgres.
 */
export async function startConformanceApi(
  name: string,
  { replicated = false }: { replicated?: boolean } = {},
): Promise<ConformanceApi> {
  const replicas: ReplicatedDatabase | null = replicated ? await startReplicatedDatabase() : null;
  const database = replicas?.database ?? (await createTestDatabase());
  const port = await freePort();
  const started: ApiProcess[] = [];
  const launch = () => startApiProcess(name, database.url, port, started, API_SETTINGS);
  let api: ApiProcess | null = await launch();
  const relay = await startTcpRelay(port);
  const keys = Object.fromEntries(
    await Promise.all(
      Object.entries(KEYS).map(async ([name, { role, madeBy }]) => {
        const secret = await createTestApiKey(database.prisma, name, role);
        await database.prisma.apiKey.update({ where: { name }, data: { createdBy: madeBy } });
        return [name, secret];
      }),
    ),
  ) as Record<KeyName, string>;

  return {
    database,
    relay,
    url: `http://127.0.0.1:${relay.port}`,
    directUrl: `http://127.0.0.1:${port}`,
    keys,
    async restart() {
      if (api) await stopApiProcess(api);
      api = await launch();
    },
    async kill() {
      if (!api) return;
      const killed = api;
      api = null;
      killed.child.kill('SIGKILL');
      if (killed.child.exitCode === null && killed.child.signalCode === null) {
        await new Promise((resolve) => killed.child.once('exit', resolve));
      }
    },
    async start() {
      api ??= await launch();
    },
    async failOver() {
      if (!replicas) throw new Error('Only a replicated database fails over.');
      const [primary, ...standbys] = replicas.replicas.servers as PostgresServer[];
      await primary?.kill();
      await replicas.replicas.failOver(standbys);
    },
    async reset() {
      api ??= await launch();
      relay.reset();
      await resetLockRegistry(database.prisma);
      await database.prisma.lockEvent.deleteMany();
    },
    async stop() {
      await relay.close();
      await Promise.all(started.map(stopApiProcess));
      await (replicas ? replicas.close() : database.close());
    },
  };
}
