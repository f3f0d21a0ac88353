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

  return {
    async listen(channel, onPayload) {
      listeners.set(channel, onPayload);
      await client?.query(`LISTEN ${channel}`);
    },
    onReconnected(onReconnected) {
      reconnectListeners.push(onReconnected);
    },
    isListening: () => client !== undefined && !closed,
    reconnectedAt: () => reconnectedAt,
    async close() {
      closed = true;
      await client?.end();
    },
  };
}
