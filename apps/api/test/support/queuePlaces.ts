import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { graphql } from '../generated';
import type { WaitForTableSubscription } from '../generated/graphql';

/** A `waitForTable` announcement as the waiting person's page receives it. */
export type QueuePlace = WaitForTableSubscription['waitForTable'];

export interface QueuePlaces {
  /** Every place announced so far, oldest first. */
  readonly received: readonly QueuePlace[];
  /** The first place, announced already or still to come, that matches; rejects after `timeoutMs`. */
  waitFor(predicate: (place: QueuePlace) => boolean, timeoutMs?: number): Promise<QueuePlace>;
  /** Resolves when the server ends the subscription. */
  readonly completed: Promise<void>;
  /** Leaves the line, as closing the page does. */
  close(): Promise<void>;
}

const waitForTableSubscription = graphql(`
  subscription WaitForTable($table: String!) {
    waitForTable(table: $table) {
      table
      state
      position
      ahead {
        editor
        since
      }
      reservedUntil
    }
  }
`);

/** Joins the line for `table` over graphql-ws with a logged-in client's cookie headers. */
export function joinLine(url: string, headers: Record<string, string>, table: string): QueuePlaces {
  const client = createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: class extends WebSocket {
      constructor(address: string | URL, protocols?: string | string[]) {
        super(address, protocols, { headers });
      }
    },
    retryAttempts: 0,
  });
  const received: QueuePlace[] = [];
  const listeners = new Set<() => void>();
  let failure: Error | undefined;
  let markCompleted: () => void = () => {};
  const completed = new Promise<void>((resolve) => {
    markCompleted = resolve;
  });
  const notify = () => {
    for (const listener of listeners) listener();
  };
  const unsubscribe = client.subscribe<WaitForTableSubscription>(
    { query: waitForTableSubscription.toString(), variables: { table } },
    {
      next(result) {
        const place = result.data?.waitForTable;
        if (result.errors || !place) failure = new Error(JSON.stringify(result.errors));
        else received.push(place);
        notify();
      },
      error(error) {
        failure = new Error(`waitForTable failed: ${JSON.stringify(error)}`);
        notify();
      },
      complete() {
        markCompleted();
        notify();
      },
    },
  );
  return {
    received,
    completed,
    waitFor: (predicate, timeoutMs = 5_000) =>
      new Promise((resolve, reject) => {
        const listener = () => {
          const place = received.find(predicate);
          if (place) finish(() => resolve(place));
          else if (failure) finish(() => reject(failure));
        };
        const timer = setTimeout(
          () =>
            finish(() =>
              reject(
                new Error(`no matching place within ${timeoutMs} ms: ${JSON.stringify(received)}`),
              ),
            ),
          timeoutMs,
        );
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(listener);
          settle();
        };
        listeners.add(listener);
        listener();
      }),
    async close() {
      unsubscribe();
      await client.dispose();
    },
  };
}
