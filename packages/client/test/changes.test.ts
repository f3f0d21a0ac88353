import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeFeedEvent, createTablelockClient, type TablelockClient } from '../src';
import { type ClientTestApi, startClientTestApi } from './support/clientTestApi';

let api: ClientTestApi;
let etl: TablelockClient;
let reader: TablelockClient;

beforeAll(async () => {
  api = await startClientTestApi();
  etl = createTablelockClient({ url: api.url, apiKey: await api.newKey('etl', 'editor') });
  reader = createTablelockClient({ url: api.url, apiKey: await api.newKey('erp', 'admin') });
});
afterAll(() => api?.stop());

/** The first `count` events `changes` yields after `after`; a page of 2 so that it pages. */
async function take(count: number, after: string | null): Promise<ChangeFeedEvent[]> {
  const stop = new AbortController();
  const events: ChangeFeedEvent[] = [];
  for await (const event of reader.changes({ after, pageSize: 2, signal: stop.signal })) {
    events.push(event);
    if (events.length === count) stop.abort();
  }
  return events;
}

describe('changes', () => {
  it('yields the feed in order, and from any event’s cursor exactly the events after it', async () => {
    await etl.withTableLock(['currencies', 'categories'], async () => undefined);
    await etl.withTableLock('currencies', async () => undefined);
    const all = await take(6, null);
    // In commit order per table; the feed promises no order between the tables of one commit.
    const typesOf = (table: string) =>
      all.filter((event) => event.table === table).map((event) => event.type);
    expect(typesOf('currencies')).toEqual(['acquire', 'release', 'acquire', 'release']);
    expect(typesOf('categories')).toEqual(['acquire', 'release']);
    for (const [k, event] of all.slice(0, -1).entries()) {
      const rest = await take(all.length - k - 1, event.cursor);
      expect(rest.map((later) => later.id)).toEqual(all.slice(k + 1).map((later) => later.id));
    }
  });

  it('waits at the end of the feed for what comes next', async () => {
    const end = (await take(6, null)).at(-1);
    const next = take(1, end?.cursor ?? null);
    await etl.withTableLock('suppliers', async () => undefined);
    expect((await next).map((event) => `${event.table} ${event.type}`)).toEqual([
      'suppliers acquire',
    ]);
  });
});
