import { execFile } from 'node:child_process';
import { appendFile, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './freePort';
import { poll } from './poll';
import { type PostgresServer, postgresOsUser, postgresServer } from './postgresServer';
import { configLines, type ReplicaTemplate, replicaTemplateDir } from './replicaTemplate';

/**
 * A primary and standbys on one machine, as a failover test needs them: each its own
 * Postgres process (started, stopped, killed by its pid), the standbys streaming from the primary.
 */
export interface ReplicaSet {
  /** The first primary, then the standbys in the order of `standbys`. */
  readonly servers: readonly PostgresServer[];
  server(name: string): PostgresServer;
  /** libpq's multi-host URL listing every server, primary only (target_session_attrs=read-write). */
  multiHostUrl(database: string): string;
  /** Makes a standby a primary (pg_promote): it moves to the next timeline. */
  promote(standby: PostgresServer): Promise<void>;
  /** Points a running standby at another primary (primary_conninfo, reloaded). */
  follow(standby: PostgresServer, primary: PostgresServer): Promise<void>;
  /**
   * Promotes the running standby that received or replayed the most WAL (the one Patroni would
   * promote) and points the others at it; answers the new primary. A standby ahead of the one
   * promoted could not follow it: with `ANY 1` synchronous standbys, either may be ahead.
   */
  failOver(standbys: PostgresServer[]): Promise<PostgresServer>;
  /**
   * Cancels (pg_cancel_backend) a COMMIT that waits on `primary` for a synchronous standby,
   * once there is one: Postgres then acknowledges it with a WARNING, kept only locally.
   * `statement`: a LIKE pattern of the waiting statement, for a commit of a lone statement.
   */
  cancelCommitWaitingForStandby(primary: PostgresServer, statement?: string): Promise<void>;
  /** The timeline the server writes (a primary) or replays (a standby) now. */
  timeline(server: PostgresServer): Promise<number>;
  /** Stops every server still running and removes the folder. */
  close(): Promise<void>;
}

export interface ReplicaSetOptions {
  /** Names of the standbys; each is its application_name. */
  standbys?: string[];
  /** synchronous_standby_names of every server (a standby uses it once promoted). */
  synchronousStandbyNames?: string;
  /** More postgresql.conf settings for every server. */
  settings?: Record<string, string>;
  /** What every server starts from (made once per test run); by default an empty cluster. */
  template?: ReplicaTemplate;
}

const PRIMARY_NAME = 'p0';
const EMPTY_CLUSTER: ReplicaTemplate = { name: 'empty' };

/**
 * Ports this process gave a server of a replica set. A later set gets others: the app's
 * processes remember per server address the newest timeline seen there (primaryLocator.ts),
 * and a test worker runs many files, whose new clusters start on timeline 1 again.
 */
const portsGiven = new Set<number>();

async function unusedPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (!portsGiven.has(port)) {
      portsGiven.add(port);
      return port;
    }
  }
}

/**
 * Starts a primary and its standbys. Postgres 18's embedded binaries hold no pg_basebackup, so
 * every server is a copy of one cleanly stopped primary's data folder (the template), a standby
 * with standby.signal and a primary_conninfo. The servers trust every connection from
 * 127.0.0.1: they are throwaway.
 */
export async function startReplicaSet(options: ReplicaSetOptions = {}): Promise<ReplicaSet> {
  const standbyNames = options.standbys ?? ['s1', 's2'];
  const synchronousStandbyNames =
    options.synchronousStandbyNames ?? `ANY 1 (${standbyNames.join(', ')})`;
  const template = await replicaTemplateDir(options.template ?? EMPTY_CLUSTER);
  const root = await mkdtemp(join(tmpdir(), 'tablelock-replicas-'));
  const owner = postgresOsUser();
  if (owner) await chown(root, owner.uid, owner.gid);

  const servers: PostgresServer[] = [];
  const close = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await rm(root, { recursive: true, force: true });
  };
  try {
    const primary = postgresServer(PRIMARY_NAME, join(root, PRIMARY_NAME), await unusedPort());
    servers.push(primary);
    for (const name of standbyNames) {
      servers.push(postgresServer(name, join(root, name), await unusedPort()));
    }
    await Promise.all(
      servers.map(async (server) => {
        await promisify(execFile)('cp', ['-a', template, server.dataDir]);
        await appendFile(
          join(server.dataDir, 'postgresql.conf'),
          configLines({
            ...options.settings,
            port: String(server.port),
            synchronous_standby_names: synchronousStandbyNames,
          }),
        );
        if (server === primary) return;
        await writeOwned(join(server.dataDir, 'standby.signal'), '', owner);
        await appendFile(
          join(server.dataDir, 'postgresql.auto.conf'),
          configLines({ primary_conninfo: conninfo(primary, server.name) }),
        );
      }),
    );
    await Promise.all(servers.map((server) => server.start()));
  } catch (error) {
    await close();
    throw error;
  }

  const withClient = async <T>(server: PostgresServer, work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: server.url() });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const promote = (standby: PostgresServer) =>
    withClient(standby, async (client) => {
      const { rows } = await client.query<{ promoted: boolean }>(
        'SELECT pg_promote(true, 30) AS promoted',
      );
      if (!rows[0]?.promoted) throw new Error(`${standby.name} was not promoted within 30 s.`);
    });
  const follow = async (standby: PostgresServer, primary: PostgresServer) => {
    await withClient(standby, async (client) => {
      await client.query(
        `ALTER SYSTEM SET primary_conninfo = '${conninfo(primary, standby.name)}'`,
      );
      await client.query('SELECT pg_reload_conf()');
    });
  };

  return {
    servers,
    server(name) {
      const found = servers.find((server) => server.name === name);
      if (!found) throw new Error(`No server named ${name}.`);
      return found;
    },
    multiHostUrl: (database) =>
      `postgresql://postgres@${servers.map((server) => `127.0.0.1:${server.port}`).join(',')}/${database}?target_session_attrs=read-write`,
    promote,
    follow,
    async failOver(standbys) {
      const positions = await Promise.all(
        standbys.map((standby) =>
          withClient(standby, async (client) => {
            // A standby started again has received nothing yet: what it replayed counts then.
            const { rows } = await client.query<{ lsn: string }>(
              `SELECT (greatest(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()) - '0/0')::text AS lsn`,
            );
            return Number(rows[0]?.lsn ?? 0);
          }),
        ),
      );
      const ahead = standbys[positions.indexOf(Math.max(...positions))];
      if (!ahead) throw new Error('No standby to promote.');
      await promote(ahead);
      for (const other of standbys) if (other !== ahead) await follow(other, ahead);
      return ahead;
    },
    cancelCommitWaitingForStandby: (primary, statement = 'COMMIT') =>
      withClient(primary, async (client) => {
        const backend = await poll('a commit waiting for a standby', 20_000, async () => {
          const { rows } = await client.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND query LIKE $1`,
            [statement],
          );
          return rows[0]?.pid;
        });
        await client.query('SELECT pg_cancel_backend($1)', [backend]);
      }),
    timeline: (server) =>
      withClient(server, async (client) => {
        // A WAL file's name starts with its timeline. A standby cannot name WAL files: it
        // tells the timeline it receives.
        const { rows } = await client.query<{ timeline: number | string | null }>(
          `SELECT CASE WHEN pg_is_in_recovery()
             THEN (SELECT received_tli FROM pg_stat_wal_receiver)
             ELSE ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int
           END AS timeline`,
        );
        return Number(rows[0]?.timeline);
      }),
    close,
  };
}

function conninfo(primary: PostgresServer, applicationName: string): string {
  return `host=127.0.0.1 port=${primary.port} user=postgres application_name=${applicationName}`;
}

async function writeOwned(
  path: string,
  text: string,
  owner: { uid: number; gid: number } | undefined,
): Promise<void> {
  await writeFile(path, text);
  if (owner) await chown(path, owner.uid, owner.gid);
}
