import { inTransaction } from '@tablelock/db';
import {
  acquireTableLock,
  freezeTables,
  grantedOrConflict,
  releaseTableLock,
  syncTableRegistry,
  thawTables,
} from '@tablelock/lock';
import { saveRows, syncWriteGuards } from '@tablelock/master-data';
import {
  createTestDatabase,
  MASTER_SCHEMA,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type OutboxEvent, readChangeFeed } from '../src';

let database: TestDatabase;
const clients: pg.Client[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const { prisma } = database;
  for (const table of FEED_TABLES) {
    await prisma.$executeRawUnsafe(
      `CREATE TABLE ${MASTER_SCHEMA}.${table} (id integer PRIMARY KEY, n integer NOT NULL)`,
    );
    await prisma.$executeRawUnsafe(
      `INSERT INTO ${MASTER_SCHEMA}.${table} SELECT i, 0 FROM generate_series(1, ${WRITERS}) AS i`,
    );
  }
  await syncTableRegistry(prisma, MASTER_SCHEMA);
  await syncWriteGuards(prisma, MASTER_SCHEMA, 'RECORD');
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.end()));
  await database.close();
});
beforeEach(async () => {
  await resetLockRegistry(database.prisma);
  await database.prisma.$executeRawUnsafe('DELETE FROM tablelock.outbox_event');
});

const FEED_TABLES = ['feed_a', 'feed_b'];
const WRITERS = 8;
// Above what the other tests write, so that every round changes its row.
const ROUND_VALUE = 1000;

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  clients.push(client);
  return client;
}

/** Every event from the feed's start, page by page. */
async function allEvents(after: string | null = null): Promise<OutboxEvent[]> {
  const events: OutboxEvent[] = [];
  let cursor = after;
  for (;;) {
    const page = await readChangeFeed(database.prisma, { after: cursor, first: 50 });
    events.push(...page.events);
    if (page.events.length === 0) return events;
    cursor = page.endCursor;
  }
}

describe('the outbox', () => {
  it('records each lock transition, freeze, save, unlocked write and policy change', async () => {
    const { prisma } = database;
    const grant = grantedOrConflict(
      await acquireTableLock(prisma, {
        tableName: 'categories',
        editor: 'alice',
        leaseSeconds: 60,
      }),
    );
    const token = grant.fencingToken;
    await saveRows(prisma, {
      schema: MASTER_SCHEMA,
      tableName: 'categories',
      holder: 'alice',
      token,
      changes: { inserts: [{ values: { id: '950', name: 'Outboxed' } }] },
    });
    await releaseTableLock(prisma, { tableName: 'categories', editor: 'alice', token });
    await freezeTables(prisma, {
      tableNames: ['categories'],
      reason: 'year end',
      until: null,
      rule: 'waitForHolders',
      actor: 'admin',
    });
    await thawTables(prisma, { tableNames: ['categories'], actor: 'admin' });
    await prisma.$executeRawUnsafe(
      `UPDATE ${MASTER_SCHEMA}.categories SET name = 'Outside' WHERE id = 950`,
    );
    await prisma.securityEvent.create({
      data: {
        action: 'table_policy_changed',
        actor: 'admin',
        subject: 'categories',
        details: { changes: { readOnly: true } },
      },
    });

    const events = await allEvents();
    expect(events.map((event) => [event.table, event.type])).toEqual([
      ['categories', 'acquire'],
      ['categories', 'save'],
      ['categories', 'release'],
      ['categories', 'freeze'],
      ['categories', 'thaw'],
      ['categories', 'unlocked_write'],
      ['categories', 'policy_change'],
    ]);
    expect(events[1]?.data).toMatchObject({ actor: 'alice', token, inserted: 1, updated: 0 });
    expect(events[5]?.data).toMatchObject({ actor: null, updated: 1 });
    expect(events[6]?.data).toMatchObject({
      actor: 'admin',
      details: { changes: { readOnly: true } },
    });
  });

  it('records nothing of a transaction that rolls back', async () => {
    const { prisma } = database;
    await expect(
      inTransaction(prisma, async (tx) => {
        grantedOrConflict(
          await acquireTableLock(tx, {
            tableName: 'categories',
            editor: 'alice',
            leaseSeconds: 60,
          }),
        );
        await tx.$executeRawUnsafe(
          `UPDATE ${MASTER_SCHEMA}.categories SET name = 'Gone' WHERE id = 1`,
        );
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await allEvents()).toEqual([]);
  });

  // The ordering at commit runs once per event and returns early when its own event has a
  // position: events inserted after an early run (SET CONSTRAINTS … IMMEDIATE) still get theirs.
  it('orders every event of a transaction whose ordering ran early, and of a bulk one', async () => {
    const client = await connect();
    const forceRelease = (table: string, count: number) =>
      client.query(
        `INSERT INTO tablelock.lock_event (action, table_name, actor, reason)
         SELECT 'force_release', $1, 'outbox-test', $1 || ' ' || n FROM generate_series(1, $2::int) AS n`,
        [table, count],
      );
    await client.query('BEGIN');
    await forceRelease('feed_a', 2);
    await client.query('SET CONSTRAINTS ALL IMMEDIATE');
    await client.query('SET CONSTRAINTS ALL DEFERRED');
    await forceRelease('feed_b', 3);
    await client.query('COMMIT');
    await forceRelease('feed_a', 2_000);

    const events = await allEvents();
    expect(events.map((event) => event.table)).toEqual([
      'feed_a',
      'feed_a',
      'feed_b',
      'feed_b',
      'feed_b',
      ...Array.from({ length: 2_000 }, () => 'feed_a'),
    ]);
    const unordered = await client.query(
      'SELECT count(*)::int AS n FROM tablelock.outbox_event WHERE position IS NULL',
    );
    expect(unordered.rows[0].n).toBe(0);
  });

  it('never lets a reader skip an event that commits after a later-numbered one', async () => {
    const [early, late] = [await connect(), await connect()];
    await early.query('BEGIN');
    await early.query(`UPDATE ${MASTER_SCHEMA}.feed_a SET n = n + 1 WHERE id = 1`);
    await late.query('BEGIN');
    await late.query(`UPDATE ${MASTER_SCHEMA}.feed_a SET n = n + 1 WHERE id = 2`);
    await late.query('COMMIT');

    const first = await readChangeFeed(database.prisma, { first: 10 });
    expect(first.events).toHaveLength(1);
    await early.query('COMMIT');
    const next = await readChangeFeed(database.prisma, { after: first.endCursor, first: 10 });
    expect(next.events).toHaveLength(1);
    const rowsOf = async (event: OutboxEvent) =>
      database.prisma.rowChange.findMany({
        where: { changeSetId: BigInt(String(event.data?.changeSetId)) },
      });
    expect((await rowsOf(first.events[0] as OutboxEvent))[0]?.rowKey).toEqual({ id: '2' });
    expect((await rowsOf(next.events[0] as OutboxEvent))[0]?.rowKey).toEqual({ id: '1' });
  });

  it('has every committed change of parallel writers once, in commit order per table', async () => {
    const { prisma } = database;
    await prisma.$executeRawUnsafe(
      'CREATE TABLE IF NOT EXISTS public.commit_ticket (table_name text PRIMARY KEY, n integer NOT NULL)',
    );
    await prisma.$executeRawUnsafe('TRUNCATE public.commit_ticket');
    await prisma.$executeRawUnsafe(
      `INSERT INTO public.commit_ticket VALUES ${FEED_TABLES.map((t) => `('${t}', 0)`).join(', ')}`,
    );
    const rounds = 15;
    // Per table: the ticket of each committed transaction, by the value its writer wrote.
    const tickets = new Map<string, number>();
    let committed = 0;
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, index) => {
        const id = index + 1;
        const client = await connect();
        for (let round = 1; round <= rounds; round++) {
          const tables = (id + round) % 2 === 0 ? FEED_TABLES : [...FEED_TABLES].reverse();
          await client.query('BEGIN');
          for (const table of tables) {
            await client.query(`UPDATE ${MASTER_SCHEMA}.${table} SET n = $2 WHERE id = $1`, [
              id,
              ROUND_VALUE + round,
            ]);
          }
          // Taken last and held to the commit: the tickets of a table count its commits in order.
          const taken: [string, number][] = [];
          for (const table of FEED_TABLES) {
            const { rows } = await client.query<{ n: number }>(
              'UPDATE public.commit_ticket SET n = n + 1 WHERE table_name = $1 RETURNING n',
              [table],
            );
            taken.push([table, rows[0]?.n ?? 0]);
          }
          if (round % 5 === 0) {
            await client.query('ROLLBACK');
            continue;
          }
          await client.query('COMMIT');
          committed++;
          for (const [table, ticket] of taken) tickets.set(`${table}/${id}/${round}`, ticket);
        }
      }),
    );

    const events = await allEvents();
    expect(events).toHaveLength(committed * FEED_TABLES.length);
    for (const table of FEED_TABLES) {
      const ofTable = events.filter((event) => event.table === table);
      const written = await prisma.rowChange.findMany({
        where: {
          changeSetId: { in: ofTable.map((event) => BigInt(String(event.data?.changeSetId))) },
        },
      });
      const ticketOf = new Map(
        written.map((change) => {
          const values = change.newValues as { n: string };
          const key = change.rowKey as { id: string };
          return [
            String(change.changeSetId),
            tickets.get(`${table}/${key.id}/${Number(values.n) - ROUND_VALUE}`),
          ];
        }),
      );
      const inFeedOrder = ofTable.map((event) => ticketOf.get(String(event.data?.changeSetId)));
      expect(inFeedOrder).toEqual(Array.from({ length: committed }, (_, i) => i + 1));
    }
  });
});
