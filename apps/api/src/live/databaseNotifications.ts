import { databaseClient } from '@tablelock/db';
import type pg from 'pg';
import type { Logger } from 'pino';

/** Postgres notifications (NOTIFY) on the channels this process listens to. */
export interface DatabaseNotifications {
  /** Calls `onPayload` with each notification on `channel`, in the order they were committed. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<void>;
  /**
   * Calls `onReconnected` each time the connection is back after it dropped: notifications sent
   * in between are lost, so listeners may need to catch up.
   */
  onReconnected(onReconnected: () => void): void;
  /** Whether the LISTEN connection is up now (notifications are being heard). */
  isListening(): boolean;
  /**
   * Resolves true once every notification committed before `since` (a `performance.now()` time,
   * at the latest the call's own) has reached its listener; false if that cannot be known (the
   * connection is down or dropped meanwhile).
   */
  catchUp(since?: number): Promise<boolean>;
  /** When (epoch ms) the connection last came back after it dropped; undefined if it never did. */
  reconnectedAt(): number | undefined;
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1000;

/**
 * One `pg` connection of this process that LISTENs on every channel asked for (Prisma Client
 * cannot LISTEN), reconnecting if it drops. One connection for all channels, so notifications
 * reach their listeners in commit order whatever the channel. Its `applicationName` is unique
 * to the process: while the connection is up, the process is alive (see the lock queue).
 */
export async function startDatabaseNotifications(
  databaseUrl: string,
  logger: Logger,
  applicationName: string,
): Promise<DatabaseNotifications> {
  const listeners = new Map<string, (payload: string) => void>();
  const reconnectListeners: (() => void)[] = [];
  let client: pg.Client | undefined;
  let closed = false;
  let reconnectedAt: number | undefined;

  async function connect(): Promise<pg.Client> {
    const next = databaseClient(databaseUrl, {
      applicationName,
      onNotice: (message) => logger.warn(message),
    });
    next.on('notification', (message) => {
      if (message.payload !== undefined) listeners.get(message.channel)?.(message.payload);
    });
    next.on('error', (error) => {
      if (client === next) client = undefined;
      // One line for the outage; the stack says nothing an operator can act on.
      logger.warn(
        { reason: error.message },
        'live feed lost its database connection; reconnecting',
      );
      void next.end().catch(() => {});
      if (!closed) setTimeout(reconnect, RECONNECT_DELAY_MS);
    });
    await next.connect();
    for (const channel of listeners.keys()) await next.query(`LISTEN ${channel}`);
    return next;
  }
  const reconnect = () => {
    connect().then(
      (next) => {
        if (closed) return void next.end();
        client = next;
        reconnectedAt = Date.now();
        logger.info('live feed listening again');
        for (const onReconnected of reconnectListeners) onReconnected();
      },
      (error: unknown) => {
        logger.debug({ err: error }, 'live feed cannot connect yet; retrying');
        if (!closed) setTimeout(reconnect, RECONNECT_DELAY_MS);
      },
    );
  };
  client = await connect();

  // A listening backend that was signalled by a commit passes its notifications on before it
  // answers the next query (postgres.c processes pending notifies before ReadyForQuery), and
  // `pg` hands them to their listeners as it reads them: one round trip on this connection
  // hears everything committed before it was sent. So a caller shares the round trip under way
  // when it was sent at or after the caller's `since` (requests that arrived together share
  // one); else it shares the one after it.
  const roundTrip = async (): Promise<boolean> => {
    const current = client;
    if (!current) return false;
    try {
      await current.query('SELECT 1');
      return current === client;
    } catch {
      return false;
    }
  };
  let sent: { at: number; answered: Promise<boolean> } | undefined;
  let queued: Promise<boolean> | undefined;
  const catchUp = (since?: number): Promise<boolean> => {
    if (!sent) {
      // Taken before the query is written: the round trip goes out at this time or later.
      const at = performance.now();
      const answered = roundTrip().finally(() => {
        sent = undefined;
      });
      sent = { at, answered };
      return answered;
    }
    if (since !== undefined && since <= sent.at) return sent.answered;
    queued ??= sent.answered.then(() => {
      queued = undefined;
      return catchUp();
    });
    return queued;
  };

  return {
    async listen(channel, onPayload) {
      listeners.set(channel, onPayload);
      await client?.query(`LISTEN ${channel}`);
    },
    onReconnected(onReconnected) {
      reconnectListeners.push(onReconnected);
    },
    isListening: () => client !== undefined && !closed,
    catchUp,
    reconnectedAt: () => reconnectedAt,
    async close() {
      closed = true;
      await client?.end();
    },
  };
}
