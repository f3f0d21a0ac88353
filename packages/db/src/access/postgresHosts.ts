/** One server of a connection URL. */
export interface PostgresHost {
  host: string;
  port: number;
}

/** A connection URL as libpq reads it: one host or several, and what a session must be. */
export interface PostgresHosts {
  hosts: PostgresHost[];
  /** libpq's target_session_attrs: `read-write` and `primary` ask for a primary. */
  primaryOnly: boolean;
  /** The URL with `host` as its only server, which `pg` can read. */
  urlFor(host: PostgresHost): string;
  /** The servers, as `host:port, …`, for messages. */
  label: string;
}

const DEFAULT_PORT = 5432;
const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/;

/**
 * Reads the servers out of a Postgres URL, which libpq lets list several
 * (`postgres://u:p@h1:5432,h2:5433/db?target_session_attrs=read-write`). Node's URL parser and
 * `pg` accept one host only; the URL given per host is what they get.
 */
export function postgresHosts(url: string): PostgresHosts {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new Error('A database URL starts with postgres:// or postgresql://.');
  const [, scheme = '', userinfo = '', hostList = '', rest = ''] = parts;
  const hosts = hostList.split(',').map(readHost);
  const [path = '', query = ''] = rest.split('?', 2);
  const params = new URLSearchParams(query);
  const sessionAttrs = params.get('target_session_attrs') ?? 'any';
  if (!['any', 'read-write', 'primary'].includes(sessionAttrs)) {
    throw new Error(`target_session_attrs=${sessionAttrs} is not supported: use read-write.`);
  }
  params.delete('target_session_attrs');
  const queryText = params.size > 0 ? `?${params}` : '';
  return {
    hosts,
    primaryOnly: sessionAttrs !== 'any',
    urlFor: (host) => `${scheme}${userinfo}${hostText(host)}${path}${queryText}`,
    label: hosts.map(hostText).join(', '),
  };
}

/** Whether `url` is a Postgres URL this app can connect with. */
export function isPostgresUrl(url: string): boolean {
  try {
    const { hosts, urlFor } = postgresHosts(url);
    return hosts.every((host) => URL.canParse(urlFor(host)));
  } catch {
    return false;
  }
}

function readHost(text: string): PostgresHost {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const plain = /^([^:[\]]+)(?::(\d+))?$/.exec(text);
  const [, host, port] = bracketed ?? plain ?? [];
  if (!host) throw new Error(`"${text}" is not a host or host:port.`);
  return { host, port: port ? Number(port) : DEFAULT_PORT };
}

function hostText({ host, port }: PostgresHost): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The servers of a URL that lists several or asks for a primary (target_session_attrs), which
 * this package connects to itself; undefined for any other URL, which `pg` reads as always.
 */
export function primaryOnlyServers(url: string): PostgresHosts | undefined {
  let servers: PostgresHosts;
  try {
    servers = postgresHosts(url);
  } catch {
    return undefined;
  }
  return servers.hosts.length > 1 || servers.primaryOnly ? servers : undefined;
}
