import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@tablelock/db';
import { LOCK_CHANNEL } from '@tablelock/lock';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { graphql } from '../generated';
import type {
  LockChangedSubscription,
  LockChangedSubscriptionVariables,
} from '../generated/graphql';

/** A `lockChanged` event as a subscriber receives it. */
export type LockChange = LockChangedSubscription['lockChanged'];

export interface LockChanges {
  /** Every change received so far, oldest first. */
  readonly received: readonly LockChange[];
  /** The first change, received already or still to come, that matches; rejects after `timeoutMs`. */
  waitFor(predicate: (change: LockChange) => boolean, timeoutMs?: number): Promise<LockChange>;
  close(): Promise<void>;
}

export interface LockChangesOptions {
  /** The API's base URL (http://host:port); the subscription goes to ws://host:port/graphql. */
  url: string;
  /** Headers of the upgrade request: a logged-in test client's session cookie. */
  headers?: Record<string, string>;
  /** For API keys: `{ authorization: 'Bearer <secret>' }`. */
  connectionParams?: Record<string, unknown>;
  table?: string;
  /** The API's database: readiness probes are announced through it. */
  prisma: PrismaClient;
}

const lockChangedSubscription = graphql(`
  subscription LockChanged($table: String) {
    lockChanged(table: $table) {
      id
      at
      action
      table
      actor
      editor
      token
      reason
      rowsChanged
      previousEditor
      tables {
        name
        status
        previousStatus
        editor
        lockedBy
        version
        updatedAt
        acquiredAt
        leaseExpiresAt
      }
    }
  }
`);

const PROBE_ACTOR = '__probe__';
const READY_TIMEOUT_MS = 10_000;
const PROBE_EVERY_MS = 100;

/**
 * Subscribes to `lockChanged` over graphql-ws and returns once the subscription is live.
 * graphql-ws does not say when the server has started listening, so a change made right after
 * subscribing could be missed; instead, probe announcements go out on the lock channel (through
 * Postgres, as real changes do) until one comes back. Probes never show up in `received`.
 */
export async function subscribeLockChanges(options: LockChangesOptions): Promise<LockChanges> {
  const headers = options.headers ?? {};
  const client = createClient({
    url: `${options.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: class extends WebSocket {
      constructor(address: string | URL, protocols?: string | string[]) {
        super(address, protocols, { headers });
      }
    },
    ...(options.connectionParams ? { connectionParams: options.connectionParams } : {}),
    retryAttempts: 0,
  });

  const received: LockChange[] = [];
  const probesSeen = new Set<string>();
  let failure: Error | undefined;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };

  const variables: LockChangedSubscriptionVariables = { table: options.table ?? null };
  const unsubscribe = client.subscribe<LockChangedSubscription>(
    { query: lockChangedSubscription.toString(), variables },
    {
      next(result) {
        const change = result.data?.lockChanged;
        if (result.errors || !change) {
          failure = new Error(`lockChanged sent errors: ${JSON.stringify(result.errors)}`);
        } else if (change.actor === PROBE_ACTOR) {
          probesSeen.add(change.id);
        } else {
          received.push(change);
        }
        notify();
      },
      error(error) {
        failure = new Error(`lockChanged failed: ${describe(error)}`);
        notify();
      },
      complete() {
        failure ??= new Error('lockChanged completed unexpectedly');
        notify();
      },
    },
  );

  const close = async () => {
    unsubscribe();
    await client.dispose();
  };

  /** Resolves once `check` returns a value; rejects on failure or after `timeoutMs`. */
  const until = <T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const listener = () => {
        if (failure) return finish(() => reject(failure));
        const value = check();
        if (value !== undefined) finish(() => resolve(value));
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`no ${what} within ${timeoutMs} ms`))),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        listeners.delete(listener);
        settle();
      };
      listeners.add(listener);
      listener();
    });

  const probes: string[] = [];
  const sendProbe = async () => {
    const id = `probe-${randomUUID()}`;
    probes.push(id);
    const payload = JSON.stringify({
      id,
      at: new Date().toISOString(),
      action: 'denied',
      table: options.table ?? PROBE_ACTOR,
      actor: PROBE_ACTOR,
      editor: null,
      token: null,
      reason: null,
      rowsChanged: null,
      previousEditor: null,
    });
    await options.prisma.$executeRaw`SELECT pg_notify(${LOCK_CHANNEL}, ${payload})`;
  };
  const prober = setInterval(() => void sendProbe().catch(() => {}), PROBE_EVERY_MS);
  try {
    await sendProbe();
    await until(
      () => (probes.some((id) => probesSeen.has(id)) ? true : undefined),
      READY_TIMEOUT_MS,
      'probe back from the lockChanged subscription',
    );
  } catch (error) {
    await close();
    throw error;
  } finally {
    clearInterval(prober);
  }

  return {
    received,
    waitFor: (predicate, timeoutMs = 5_000) =>
      until(() => received.find(predicate), timeoutMs, 'matching lock change'),
    close,
  };
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  const close = error as { code?: number; reason?: string };
  if (typeof close?.code === 'number') return `socket closed ${close.code} ${close.reason ?? ''}`;
  return JSON.stringify(error);
}
