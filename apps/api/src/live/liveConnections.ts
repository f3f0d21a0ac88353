import { type Principal, sessionTimeLeft } from '@tablelock/identity';
import { CloseCode } from 'graphql-ws';
import { authenticate, type Credentials } from '../auth/authenticate';
import type { ApiServices } from '../context';
import type { CredentialChange } from '../ports/credentialChangeFeed';

/** Per API process: enough for a user's browser tabs and a system's workers, not a flood. */
export const MAX_CONNECTIONS_PER_PRINCIPAL = 20;

/** RFC 6455 "policy violation": graphql-ws clients do not retry it. */
const TOO_MANY_CONNECTIONS = 1008;
/** RFC 6455 "try again later": the credentials could not be checked (the database is down). */
const CHECK_FAILED = 1013;

// setTimeout takes at most 2^31-1 ms (24.8 days); sessions may last 30 days.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** An authenticated WebSocket connection. */
export interface LiveConnection {
  principal: Principal;
  credentials: Credentials;
  close(code: number, reason: string): void;
}

/** A connection's standing with this process, from `admit` until `remove`. */
export interface ConnectionStanding {
  /**
   * Whether the connection's credentials still hold: pending while a credential change that
   * concerns it is being checked. Events wait for it, so that none reach a connection whose
   * credentials ended before the event was committed (it is closed before this resolves false).
   */
  holds(): Promise<boolean>;
  remove(): void;
}

/** This process's authenticated WebSocket connections, by principal. */
export interface LiveConnections {
  /**
   * Counts the connection in, or closes it (1008) and returns null if its principal has
   * MAX_CONNECTIONS_PER_PRINCIPAL already.
   */
  admit(connection: LiveConnection): ConnectionStanding | null;
  /**
   * Checks again, one query each, the connections a change concerns; closes (4403) those whose
   * credentials no longer hold or now name another role.
   */
  recheck(change: CredentialChange): void;
}

interface Entry {
  connection: LiveConnection;
  holds: Promise<boolean>;
  /** A recheck is queued behind the one running: a later change needs no other. */
  recheckQueued: boolean;
  expiryTimer?: NodeJS.Timeout;
  removed: boolean;
}

/**
 * Credentials are checked when a connection opens, not per event: afterwards a connection is
 * checked again only when the database announces a change to its principal's credentials and
 * (for a session) when the session expires. When announcements may have been missed, the
 * subscription server closes every connection instead.
 */
export function createLiveConnections(services: ApiServices): LiveConnections {
  const byPrincipal = new Map<string, Set<Entry>>();
  const keyOf = ({ kind, id }: Pick<Principal, 'kind' | 'id'>) => `${kind}:${id}`;

  async function stillHolds({ principal, credentials }: LiveConnection): Promise<boolean> {
    const now = (await authenticate(services, credentials, { fresh: true })).principal;
    // A new role or name means the connection's context is out of date: it reconnects.
    return (
      now !== null &&
      now.kind === principal.kind &&
      now.id === principal.id &&
      now.name === principal.name &&
      now.role === principal.role
    );
  }

  function recheckEntry(entry: Entry): Promise<boolean> {
    if (entry.recheckQueued) return entry.holds;
    entry.recheckQueued = true;
    entry.holds = entry.holds.then(async (held) => {
      entry.recheckQueued = false;
      if (!held || entry.removed) return false;
      try {
        if (await stillHolds(entry.connection)) return true;
        entry.connection.close(CloseCode.Forbidden, 'Forbidden');
      } catch (error) {
        services.logger.warn({ err: error }, 'cannot check a WebSocket connection again');
        entry.connection.close(CHECK_FAILED, 'Try again later');
      }
      return false;
    });
    return entry.holds;
  }

  /** Checks a session connection again when its session runs out (by the database clock). */
  function watchExpiry(entry: Entry, sessionToken: string): void {
    sessionTimeLeft(services.prisma, sessionToken).then(
      (timeLeft) => {
        if (entry.removed) return;
        entry.expiryTimer = setTimeout(
          async () => {
            if (await recheckEntry(entry)) watchExpiry(entry, sessionToken);
          },
          Math.min(timeLeft ?? 0, MAX_TIMER_MS),
        ).unref();
      },
      (error: unknown) => {
        services.logger.warn({ err: error }, 'cannot read when a session expires');
        entry.connection.close(CHECK_FAILED, 'Try again later');
      },
    );
  }

  return {
    admit(connection) {
      const key = keyOf(connection.principal);
      const entries = byPrincipal.get(key) ?? new Set<Entry>();
      if (entries.size >= MAX_CONNECTIONS_PER_PRINCIPAL) {
        connection.close(
          TOO_MANY_CONNECTIONS,
          `Too many connections: at most ${MAX_CONNECTIONS_PER_PRINCIPAL} per user or API key`,
        );
        return null;
      }
      const entry: Entry = {
        connection,
        holds: Promise.resolve(true),
        recheckQueued: false,
        removed: false,
      };
      entries.add(entry);
      byPrincipal.set(key, entries);
      const { sessionToken, authorization } = connection.credentials;
      if (authorization === null && sessionToken !== null) watchExpiry(entry, sessionToken);
      return {
        holds: () => entry.holds,
        remove() {
          entry.removed = true;
          clearTimeout(entry.expiryTimer);
          entries.delete(entry);
          if (entries.size === 0) byPrincipal.delete(key);
        },
      };
    },
    recheck(change) {
      for (const entry of byPrincipal.get(keyOf(change)) ?? []) void recheckEntry(entry);
    },
  };
}
