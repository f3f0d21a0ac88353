import pg from 'pg';
import { primaryOnlyServers } from './postgresHosts';
import {
  NoPrimaryError,
  type PrimaryLocator,
  primaryLocatorFor,
  ROLE_QUERY,
  type ServerRole,
} from './primaryLocator';

/**
 * `pg` connects to one host (node-postgres#2781). This client class connects to the primary
 * its locator names, then asks the server itself what it is, and gives up on a standby or an
 * old primary: the locator then looks for the primary again for the next connection.
 */
export function primaryClientClass(
  locator: PrimaryLocator,
  Base: typeof pg.Client = pg.Client,
): typeof pg.Client {
  return class PrimaryClient extends Base {
    // biome-ignore lint/suspicious/noExplicitAny: pg's connect answers a promise or calls back.
    override connect(callback?: (...answer: any[]) => void): any {
      const connecting = this.connectToPrimary().then(() => this);
      if (!callback) return connecting;
      connecting.then(
        () => callback(null),
        (error: unknown) => callback(error),
      );
    }

    private async connectToPrimary(): Promise<void> {
      const server = await locator.primary();
      this.host = server.host;
      this.port = server.port;
      // Before connecting: a server that ends the session as it opens (a primary dying) can send
      // its FATAL in the same read as its ReadyForQuery, before `connect` resumes here and before
      // a pool listens to this client. An 'error' nobody listens to would end the process.
      this.on('error', () => locator.lost(server));
      try {
        await super.connect();
      } catch (error) {
        locator.lost(server);
        throw error;
      }
      const { rows } = await super.query<ServerRole>(ROLE_QUERY);
      if (rows[0] && locator.accept(server, rows[0])) {
        const connection = locator.opened(server);
        this.once('end', () => connection.closed());
        return;
      }
      await this.end();
      throw new NoPrimaryError(
        `Database server ${server.host}:${server.port} is not the primary now.`,
      );
    }
  };
}

export interface DatabaseClientOptions {
  applicationName?: string;
  /** Told once of each server refused and each primary found, for a multi-host URL. */
  onNotice?: (message: string) => void;
}

/**
 * A `pg` client for a session of its own (LISTEN, a long DDL statement): to the primary when
 * the URL lists several servers or asks for one, as every pooled connection goes.
 */
export function databaseClient(url: string, options: DatabaseClientOptions = {}): pg.Client {
  const config = options.applicationName ? { application_name: options.applicationName } : {};
  const servers = primaryOnlyServers(url);
  if (!servers) return new pg.Client({ connectionString: url, ...config });
  const locator = primaryLocatorFor(servers);
  locator.onNotice ??= options.onNotice;
  const Client = primaryClientClass(locator);
  return new Client({ connectionString: firstServerUrl(servers), ...config });
}

/** What `pg` is given to read (user, password, database, TLS): the first server's URL. */
export function firstServerUrl(servers: NonNullable<ReturnType<typeof primaryOnlyServers>>) {
  const [first] = servers.hosts;
  if (!first) throw new Error('A database URL names at least one server.');
  return servers.urlFor(first);
}
