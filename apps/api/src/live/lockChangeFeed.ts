import { EventEmitter, on } from 'node:events';
import { LOCK_CHANNEL, type LockEventRecord, parseAnnouncedEvent } from '@tablelock/lock';
import pg from 'pg';
import type { Logger } from 'pino';

/** Lock changes as they commit, from any API instance on the same database. */
export interface LockChangeFeed {
  /** Changes from now on, of `table` only when given; ends when the consumer stops. */
  subscribe(table?: string | null): AsyncGenerator<LockEventRecord>;
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1000;

/**
 * Listens on the Postgres channel that every lock change is announced on (by the transaction
 * that made it), and fans the changes out to this process's subscribers. Prisma Client cannot
 * LISTEN, so this keeps one `pg` connection of its own, reconnecting if it drops.
 */
export async function startLockChangeFeed(
  databaseUrl: string,
  logger: Logger,
): Promise<LockChangeFeed> {
  const changes = new EventEmitter();
  changes.setMaxListeners(0);
  let client: pg.Client | undefined;
  let closed = false;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (message) => {
      const event = message.payload ? parseAnnouncedEvent(message.payload) : undefined;
      if (event) changes.emit('change', event);
    });
    next.on('error', (error) => {
      logger.warn({ err: error }, 'lock change feed lost its connection; reconnecting');
      void next.end().catch(() => {});
      if (!closed) setTimeout(() => void connect().catch(retry), RECONNECT_DELAY_MS);
    });
    await next.connect();
    await next.query(`LISTEN ${LOCK_CHANNEL}`);
    client = next;
  }
  const retry = (error: unknown) => {
    logger.warn({ err: error }, 'lock change feed cannot connect; retrying');
    if (!closed) setTimeout(() => void connect().catch(retry), RECONNECT_DELAY_MS);
  };
  await connect();

  return {
    async *subscribe(table) {
      for await (const [event] of on(changes, 'change') as AsyncIterable<[LockEventRecord]>) {
        if (!table || event.tableName === table) yield event;
      }
    },
    async close() {
      closed = true;
      await client?.end();
    },
  };
}
