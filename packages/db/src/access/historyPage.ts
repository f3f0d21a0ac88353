/** A page of an audit history, newest first, and the way to the pages beside it. */
export interface HistoryPage<Event> {
  events: Event[];
  /** How many events match the filter, counted up to HISTORY_COUNT_LIMIT. */
  total: number;
  /** More than `total` match: the count stopped there. */
  totalCapped: boolean;
  /** Events older than the page's last match the filter. */
  hasOlder: boolean;
  /** Events newer than the page's first match the filter. */
  hasNewer: boolean;
}

/**
 * Where counting stops: an exact count of millions of events would cost more than the page.
 * Up to here, it reads the filter's index and no more.
 */
export const HISTORY_COUNT_LIMIT = 10_000;

/** Which events a page reads, by id, beside the filter. */
export interface HistoryBound {
  olderThan?: bigint;
  newerThan?: bigint;
}

/** The three reads of one history under one filter, each on its primary key. */
export interface HistoryReads<Event> {
  /** Up to `take` events within `bound`, newest or oldest first, skipping `offset`. */
  events(
    bound: HistoryBound,
    order: 'newest' | 'oldest',
    offset: number,
    take: number,
  ): Promise<Event[]>;
  /** Whether any event within `bound` matches. */
  exists(bound: HistoryBound): Promise<boolean>;
  /** How many match, counted up to `cap`. */
  count(cap: number): Promise<number>;
}

/**
 * A page of a history by keyset (`before`/`after` an event's id: as fast on the millionth page
 * as on the first) or, for old links, by offset. `request` is checked (requireHistoryPage).
 */
export async function readHistoryPage<Event extends { id: string }>(
  request: { offset: number; limit: number; before?: string | null; after?: string | null },
  reads: HistoryReads<Event>,
): Promise<HistoryPage<Event>> {
  const { offset, limit } = request;
  const before = request.before != null ? BigInt(request.before) : undefined;
  const after = request.after != null ? BigInt(request.after) : undefined;
  const [read, counted] = await Promise.all([
    after !== undefined
      ? reads.events({ newerThan: after }, 'oldest', 0, limit + 1)
      : reads.events(
          before !== undefined ? { olderThan: before } : {},
          'newest',
          offset,
          limit + 1,
        ),
    reads.count(HISTORY_COUNT_LIMIT + 1),
  ]);
  const more = read.length > limit;
  const page = read.slice(0, limit);
  const events = after !== undefined ? page.reverse() : page;
  const first = events[0];
  const last = events.at(-1);
  // An empty page is bounded by its cursor.
  const newest = first ? BigInt(first.id) : (before ?? 0n) - 1n;
  const oldest = last ? BigInt(last.id) : (after ?? 0n) + 1n;
  const [hasOlder, hasNewer] = await Promise.all([
    after === undefined ? more : reads.exists({ olderThan: oldest }),
    after !== undefined
      ? more
      : before !== undefined
        ? reads.exists({ newerThan: newest })
        : offset > 0,
  ]);
  return {
    events,
    total: Math.min(counted, HISTORY_COUNT_LIMIT),
    totalCapped: counted > HISTORY_COUNT_LIMIT,
    hasOlder,
    hasNewer,
  };
}
