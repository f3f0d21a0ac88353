import { EventEmitter, on } from 'node:events';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { type ExecutionResult, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createSharedSubscribe } from '../src/live/sharedExecution';

// One lock change reaches thousands of subscribers: it is executed once per selection set.

function countingSchema() {
  const executions = { count: 0 };
  const feed = new EventEmitter();
  const schema = makeExecutableSchema({
    typeDefs: `
      type Event { table: String! action: String! }
      type Query { ok: Boolean }
      type Subscription { lockChanged(table: String): Event!  waitForTable: Event! }`,
    resolvers: {
      Event: {
        table: (event: { table: string }) => {
          executions.count++;
          return event.table;
        },
      },
      Subscription: {
        lockChanged: {
          subscribe: () => eventsOf(feed),
          resolve: (event: unknown) => event,
        },
        waitForTable: {
          subscribe: () => eventsOf(feed),
          resolve: (event: unknown) => event,
        },
      },
    },
  });
  return { schema, feed, executions };
}

/** Each event of `feed`, the same object for every subscriber, as the lock feed hands them out. */
function eventsOf(feed: EventEmitter): AsyncIterableIterator<unknown> {
  const events = on(feed, 'change') as AsyncIterableIterator<unknown[]>;
  return {
    async next() {
      const next = await events.next();
      return next.done ? next : { value: next.value[0], done: false };
    },
    async return() {
      await events.return?.();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

async function subscribe(
  schema: ReturnType<typeof countingSchema>['schema'],
  query: string,
  role = 'viewer',
) {
  const subscribeShared = createSharedSubscribe();
  const stream = await subscribeShared({
    schema,
    document: parse(query),
    contextValue: { principal: { role } },
  });
  if (!(Symbol.asyncIterator in stream)) throw new Error(JSON.stringify(stream));
  return stream;
}

describe('shared execution of subscription events', () => {
  it('executes a lockChanged event once per distinct selection set, whatever the subscribers', async () => {
    const { schema, feed, executions } = countingSchema();
    const subscribeShared = createSharedSubscribe();
    const open = async (query: string) => {
      const stream = await subscribeShared({
        schema,
        document: parse(query),
        contextValue: { principal: { role: 'viewer' } },
      });
      if (!(Symbol.asyncIterator in stream)) throw new Error(JSON.stringify(stream));
      return stream;
    };
    const same = await Promise.all(
      Array.from({ length: 5 }, () => open('subscription { lockChanged { table action } }')),
    );
    const other = await open('subscription { lockChanged { table } }');
    const next = [...same, other].map((stream) => stream.next());
    feed.emit('change', { table: 'products', action: 'acquire' });
    const results = (await Promise.all(next)).map((r) => r.value as ExecutionResult);

    expect(results.slice(0, 5)).toEqual(
      Array(5).fill({ data: { lockChanged: { table: 'products', action: 'acquire' } } }),
    );
    expect(results[5]).toEqual({ data: { lockChanged: { table: 'products' } } });
    expect(executions.count).toBe(2);
    for (const stream of [...same, other]) await stream.return?.();
  });

  it('executes other subscriptions, and other roles, apart', async () => {
    const { schema, feed, executions } = countingSchema();
    const streams = [
      await subscribe(schema, 'subscription { waitForTable { table } }'),
      await subscribe(schema, 'subscription { waitForTable { table } }'),
      await subscribe(schema, 'subscription { lockChanged { table } }', 'viewer'),
      await subscribe(schema, 'subscription { lockChanged { table } }', 'admin'),
    ];
    const next = streams.map((stream) => stream.next());
    feed.emit('change', { table: 'regions', action: 'release' });
    await Promise.all(next);
    expect(executions.count).toBe(4);
    for (const stream of streams) await stream.return?.();
  });

  it('ends at once when the subscriber leaves, without waiting for another event', async () => {
    const { schema } = countingSchema();
    const stream = await subscribe(schema, 'subscription { lockChanged { table } }');
    const pending = stream.next();
    await stream.return?.();
    expect(await pending).toEqual({ value: undefined, done: true });
  });
});
