import { describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

const signedIn = useSignedInApi();

const lockEventPage = graphql(`
  query LockEventPageByCursor($table: String, $limit: Int, $offset: Int, $before: ID, $after: ID) {
    lockEvents(filter: { table: $table }, limit: $limit, offset: $offset, before: $before, after: $after) {
      total
      totalCapped
      hasOlder
      hasNewer
      events {
        id
        reason
      }
    }
  }
`);

const securityEventPage = graphql(`
  query SecurityEventPageByCursor($user: String, $limit: Int, $before: ID) {
    securityEvents(filter: { user: $user }, limit: $limit, before: $before) {
      total
      hasOlder
      hasNewer
      events {
        subject
      }
    }
  }
`);

/** `count` events of `table`, reasons `<table> 1` … `<table> count` in order. */
const lockEventsOf = (table: string, count: number) => signedIn.database.prisma.$executeRaw`
  INSERT INTO tablelock.lock_event (action, table_name, actor, reason)
  SELECT 'force_release', ${table}, 'history-writer', ${table} || ' ' || n
  FROM generate_series(1, ${count}::int) AS n`;

async function page(variables: {
  table: string;
  limit: number;
  offset?: number;
  before?: string;
  after?: string;
}) {
  const response = await execute(signedIn.admin, lockEventPage, variables);
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  const { events, ...rest } = response.data.lockEvents;
  return { ...rest, reasons: events.map((event) => event.reason), ids: events.map((e) => e.id) };
}

describe('history pages by keyset', () => {
  it('walks a history older and newer by event ids, and says where more are', async () => {
    await lockEventsOf('paged', 25);
    const first = await page({ table: 'paged', limit: 10 });
    expect(first).toMatchObject({ total: 25, totalCapped: false, hasOlder: true, hasNewer: false });
    expect(first.reasons).toEqual(Array.from({ length: 10 }, (_, i) => `paged ${25 - i}`));

    const second = await page({ table: 'paged', limit: 10, before: first.ids.at(-1) });
    expect(second).toMatchObject({ hasOlder: true, hasNewer: true });
    expect(second.reasons).toEqual(Array.from({ length: 10 }, (_, i) => `paged ${15 - i}`));
    const third = await page({ table: 'paged', limit: 10, before: second.ids.at(-1) });
    expect(third).toMatchObject({ hasOlder: false, hasNewer: true });
    expect(third.reasons).toEqual(['paged 5', 'paged 4', 'paged 3', 'paged 2', 'paged 1']);

    // Back: newer than the first of the third page is the second page again, newest first.
    const back = await page({ table: 'paged', limit: 10, after: third.ids[0] });
    expect(back).toMatchObject({ reasons: second.reasons, hasOlder: true, hasNewer: true });
    const start = await page({ table: 'paged', limit: 10, after: back.ids[0] });
    expect(start).toMatchObject({ reasons: first.reasons, hasOlder: true, hasNewer: false });

    // Old links by offset still read the same page.
    expect((await page({ table: 'paged', limit: 10, offset: 10 })).reasons).toEqual(second.reasons);
  });

  it('counts up to 10,000 and says when there are more', async () => {
    await lockEventsOf('crowded', 10_050);
    expect(await page({ table: 'crowded', limit: 5 })).toMatchObject({
      total: 10_000,
      totalCapped: true,
      hasOlder: true,
    });
  });

  it('pages the security events the same way', async () => {
    await signedIn.database.prisma.$executeRaw`
      INSERT INTO tablelock.security_event (action, actor, subject)
      SELECT 'login', 'paged-user', 'paged-user ' || n FROM generate_series(1, 5) AS n`;
    const first = await execute(signedIn.admin, securityEventPage, {
      user: 'paged-user',
      limit: 3,
    });
    expect(first.data?.securityEvents).toMatchObject({ total: 5, hasOlder: true, hasNewer: false });
    const byActor = await signedIn.database.prisma.securityEvent.findMany({
      where: { actor: 'paged-user' },
      orderBy: { id: 'desc' },
    });
    const older = await execute(signedIn.admin, securityEventPage, {
      limit: 3,
      before: byActor[1]?.id.toString(),
    });
    expect(older.data?.securityEvents.events.map((event) => event.subject)).toEqual([
      'paged-user 3',
      'paged-user 2',
      'paged-user 1',
    ]);
    expect(older.data?.securityEvents).toMatchObject({ hasNewer: true });
  });

  it('refuses a cursor that is not an event id, or two ways of paging at once', async () => {
    const badPages: {
      table: string;
      limit: number;
      before: string;
      after?: string;
      offset?: number;
    }[] = [
      { table: 'paged', limit: 10, before: 'abc' },
      { table: 'paged', limit: 10, before: '-1' },
      { table: 'paged', limit: 10, before: '5', after: '1' },
      { table: 'paged', limit: 10, before: '5', offset: 10 },
    ];
    for (const variables of badPages) {
      const response = await execute(signedIn.admin, lockEventPage, variables);
      expect(response.errors?.[0]?.extensions?.code, JSON.stringify(variables)).toBe(
        'BAD_USER_INPUT',
      );
    }
  });
});
