import { graphql } from '../generated';
import type { WaitForTableSubscription } from '../generated/graphql';
import { openLiveSocket, type SubscriptionMessage } from './liveSocket';

/** A `waitForTable` announcement as the waiting person's page receives it. */
export type QueuePlace = WaitForTableSubscription['waitForTable'];

export interface QueuePlaces {
  /** The first place, announced already or still to come, that matches; rejects after `timeoutMs` or on an error. */
  waitFor(predicate: (place: QueuePlace) => boolean, timeoutMs?: number): Promise<QueuePlace>;
  /** Resolves when the server ends the subscription. */
  waitForEnd(): Promise<void>;
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

const placeIn = (message: SubscriptionMessage) =>
  'next' in message ? (message.next as WaitForTableSubscription).waitForTable : undefined;

/** Joins the line for `table` over graphql-ws with a logged-in client's cookie headers. */
export function joinLine(url: string, headers: Record<string, string>, table: string): QueuePlaces {
  const socket = openLiveSocket({ url, headers });
  const subscription = socket.subscribe(waitForTableSubscription.toString(), { table });
  return {
    async waitFor(predicate, timeoutMs = 5_000) {
      const message = await subscription.waitFor((candidate) => {
        const place = placeIn(candidate);
        return place ? predicate(place) : !('complete' in candidate);
      }, timeoutMs);
      const place = placeIn(message);
      if (!place) throw new Error(`waitForTable failed: ${JSON.stringify(message)}`);
      return place;
    },
    async waitForEnd() {
      await subscription.waitFor((message) => 'complete' in message);
    },
    close: () => socket.dispose(),
  };
}
