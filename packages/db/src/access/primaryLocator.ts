import pg from 'pg';
import type { PostgresHost, PostgresHosts } from './postgresHosts';

/** What a server says it is: the answer of ROLE_QUERY. */
export interface ServerRole {
  standby: boolean;
  /** The timeline a primary writes; null on a standby. */
  timeline: number | null;
}

/**
 * Asks a server whether it is a standby and, if not, the timeline it writes: a WAL file's name
 * starts with its timeline (pg_walfile_name cannot run on a standby, hence the CASE).
 */
export const ROLE_QUERY = `SELECT pg_is_in_recovery() AS standby,
  CASE WHEN pg_is_in_recovery() THEN NULL
    ELSE ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int
  END AS timeline`;

/**
 * No server of the URL can be used as the primary now. Its code is SQLSTATE 08001 (could not
 * establish a connection), as for any connection that fails: callers treat it as an outage.
 */
export class NoPrimaryError extends Error {
  readonly code = '08001';
}

/** How long a connection waits for some server to be primary: a failover takes seconds. */
const FIND_PRIMARY_TIMEOUT_MS = 20_000;
const PROBE_CONNECT_TIMEOUT_MS = 2_000;
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 2_000;

/**
 * Which server of a multi-host URL is the primary, as this process knows it: shared by every
 * connection of the process to those servers (pooled and LISTEN), so that the newest timeline
 * one of them saw refuses an old primary for all of them.
 */
export class PrimaryLocator {
  private known: PostgresHost | undefined;
  /** Connections to `known` open now: while one lives, a break would have told of its loss. */
  private openToKnown = 0;
  /** Counts the times `known` was forgotten: a connection opened before counts for no later one. */
  private forgotten = 0;
  private highestTimeline = 0;
  private search: Promise<PostgresHost> | undefined;
  private readonly logged = new Set<string>();
  /** Where refusals and switches are told, once each; set by the process that logs. */
  onNotice: ((message: string) => void) | undefined;

  constructor(readonly servers: PostgresHosts) {}

  /** The primary to connect to: the one known, or the first found by asking every server. */
  primary(): Promise<PostgresHost> {
    if (this.known) return Promise.resolve(this.known);
    this.search ??= this.find().finally(() => {
      this.search = undefined;
    });
    return this.search;
  }

  /**
   * Whether `role`, the answer of `host` on a new connection, makes it a primary to use: a
   * standby, or a primary on a timeline behind the newest seen, is refused and forgotten.
   */
  accept(host: PostgresHost, role: ServerRole): boolean {
    const refusal = this.refusal(host, role);
    if (refusal) {
      this.notice(refusal);
      this.lost(host);
      return false;
    }
    this.highestTimeline = Math.max(this.highestTimeline, role.timeline ?? 0);
    if (!this.known) {
      this.known = host;
      this.notice(`Database primary is ${label(host)} on timeline ${role.timeline}.`);
    }
    return true;
  }

  /** A connection to `host` failed or broke: the next one looks for the primary again. */
  lost(host: PostgresHost): void {
    if (sameHost(this.known, host)) this.forget();
  }

  /**
   * A connection to `host`, accepted as the primary, opened; `closed` when it ends. Once none
   * is left (all ended cleanly: a pool's idle ones, say), nothing would hear the primary go
   * away, so the next connection looks for the primary again rather than trust the old one.
   */
  opened(host: PostgresHost): { closed(): void } {
    if (!sameHost(this.known, host)) return { closed() {} };
    this.openToKnown++;
    const since = this.forgotten;
    return {
      closed: () => {
        if (since !== this.forgotten) return;
        this.openToKnown--;
        if (this.openToKnown === 0) this.forget();
      },
    };
  }

  private forget(): void {
    this.known = undefined;
    this.openToKnown = 0;
    this.forgotten++;
  }

  private refusal(host: PostgresHost, role: ServerRole): string | undefined {
    if (role.standby) return `Database server ${label(host)} is a standby: not used.`;
    if ((role.timeline ?? 0) < this.highestTimeline) {
      return `Database server ${label(host)} is a primary on timeline ${role.timeline}, behind timeline ${this.highestTimeline}: not used.`;
    }
    return undefined;
  }

  /** Asks every server at once, round after round with growing pauses, until one is primary. */
  private async find(): Promise<PostgresHost> {
    const deadline = Date.now() + FIND_PRIMARY_TIMEOUT_MS;
    for (let pause = FIRST_BACKOFF_MS; ; pause = Math.min(pause * 2, MAX_BACKOFF_MS)) {
      const roles = await Promise.all(this.servers.hosts.map((host) => this.probe(host)));
      const answers = this.servers.hosts.flatMap((host, index) => {
        const role = roles[index];
        return role ? [{ host, role }] : [];
      });
      // Of several primaries (an old one back, not fenced), only the newest timeline's is used.
      for (const { role } of answers) {
        this.highestTimeline = Math.max(this.highestTimeline, role.timeline ?? 0);
      }
      const usable = answers.filter(({ host, role }) => this.accept(host, role));
      if (usable[0]) return usable[0].host;
      if (Date.now() + pause > deadline) {
        throw new NoPrimaryError(`No primary among the database servers ${this.servers.label}.`);
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /** What `host` says it is; undefined when it cannot be reached. */
  private async probe(host: PostgresHost): Promise<ServerRole | undefined> {
    const client = new pg.Client({
      connectionString: this.servers.urlFor(host),
      connectionTimeoutMillis: PROBE_CONNECT_TIMEOUT_MS,
    });
    // A server dying as the probe connects can send its FATAL in the same read as its
    // ReadyForQuery, before `connect` resumes: emitted to nobody, that 'error' would end the
    // process. Heard here, it fails the role query below instead.
    client.on('error', () => {});
    try {
      await client.connect();
      return (await client.query<ServerRole>(ROLE_QUERY)).rows[0];
    } catch {
      return undefined;
    } finally {
      await client.end().catch(() => {});
    }
  }

  private notice(message: string): void {
    if (this.logged.has(message)) return;
    this.logged.add(message);
    this.onNotice?.(message);
  }
}

const locators = new Map<string, PrimaryLocator>();

/** The process's locator for these servers (the same for every URL that lists them). */
export function primaryLocatorFor(servers: PostgresHosts): PrimaryLocator {
  // Keyed by the URL too: the servers are asked as the URL's user, on its database.
  const key = servers.hosts.map(servers.urlFor).join(' ');
  let locator = locators.get(key);
  if (!locator) {
    locator = new PrimaryLocator(servers);
    locators.set(key, locator);
  }
  return locator;
}

function sameHost(a: PostgresHost | undefined, b: PostgresHost): boolean {
  return a?.host === b.host && a.port === b.port;
}

function label({ host, port }: PostgresHost): string {
  return `${host}:${port}`;
}
