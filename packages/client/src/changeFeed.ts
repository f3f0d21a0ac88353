import { setTimeout as delay } from 'node:timers/promises';
import { graphql } from './generated';
import type { ClientChangeFeedQuery } from './generated/graphql';
import type { TablelockApi } from './tablelockApi';

/** One event of the change feed; `cursor` reads on after it. */
export type ChangeFeedEvent = ClientChangeFeedQuery['changeFeed']['events'][number];

export interface ChangesOptions {
  /** An event's `cursor` (saved once it was handled): the events after it. Null: from the first kept. */
  after?: string | null;
  /** Only these tables; all when left out. */
  tables?: readonly string[];
  /** Only these event types (acquire, save, …); all when left out. */
  types?: readonly string[];
  /** Events asked for at a time (1–500). */
  pageSize?: number;
  /** How long to wait before asking again once every event has been read. */
  pollIntervalMs?: number;
  /** Ends the iteration. */
  signal?: AbortSignal;
}

const changeFeedQuery = graphql(`
  query ClientChangeFeed($after: String, $first: Int, $tables: [String!], $types: [String!]) {
    changeFeed(after: $after, first: $first, tables: $tables, types: $types) {
      events {
        id
        table
        type
        at
        data
        cursor
      }
      endCursor
    }
  }
`);

/** A feed read is retried this long while the API cannot be reached. */
const READ_RETRY_MS = 10_000;

/**
 * The feed's events after `options.after`, for as long as the caller iterates: when every
 * event has been read it waits for more. Ends when `options.signal` aborts. Save an event's
 * `cursor` once it is handled, and pass it as `after` after a restart: nothing is skipped.
 */
export async function* readChanges(
  api: TablelockApi,
  options: ChangesOptions = {},
): AsyncGenerator<ChangeFeedEvent> {
  const { signal, pageSize = 100, pollIntervalMs = 1_000 } = options;
  let after = options.after ?? null;
  const filter = {
    ...(options.tables ? { tables: [...options.tables] } : {}),
    ...(options.types ? { types: [...options.types] } : {}),
  };
  while (!signal?.aborted) {
    let page: ClientChangeFeedQuery['changeFeed'];
    try {
      const data = await api.request(
        changeFeedQuery,
        { after, first: pageSize, ...filter },
        { retryForMs: api.retryFor(READ_RETRY_MS), signal },
      );
      page = data.changeFeed;
    } catch (error) {
      if (signal?.aborted) return;
      throw error;
    }
    for (const event of page.events) {
      if (signal?.aborted) return;
      yield event;
    }
    after = page.endCursor;
    if (page.events.length < pageSize) {
      await delay(pollIntervalMs, undefined, { signal }).catch(() => undefined);
    }
  }
}
