import { acquireTableLock, forceReleaseTableLock, isGranted } from '@tablelock/lock';
import { MASTER_SCHEMA } from '@tablelock/test-support';
import type pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { TABLE, TARGET, useGuardTestbed } from './guardTestbed';
import { refusal } from './otherWriter';

// Issue 40, item 4: a database login that called use_lock and kept its transaction open held
// the lock's registry row share-locked until it ended. An admin's force release waited for it
// and failed after 5 s; the login kept writing after the lease had ended; and even a write that
// changed nothing, without a token, kept acquisitions of the table (and of the tables
// referencing it) from being granted.
const bed = useGuardTestbed();

const WRITE = `UPDATE ${TARGET} SET price = 9 WHERE id = 1`;

/** Where the outside transaction puts SET CONSTRAINTS ALL IMMEDIATE, if anywhere. */
type Immediate = 'never' | 'first' | 'after its writes';
const IMMEDIATE: Immediate[] = ['never', 'first', 'after its writes'];

/** The other writer in a transaction it leaves open: use_lock with `token`, then one write. */
async function openLockedWrite(token: string, immediate: Immediate = 'never'): Promise<pg.Client> {
  const client = await bed.connect();
  await client.query('BEGIN');
  if (immediate === 'first') await client.query('SET CONSTRAINTS ALL IMMEDIATE');
  await client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]);
  await client.query(WRITE);
  if (immediate === 'after its writes') await client.query('SET CONSTRAINTS ALL IMMEDIATE');
  return client;
}

function forceRelease(reason: string) {
  return forceReleaseTableLock(bed.database.prisma, { tableName: TABLE, actor: 'admin', reason });
}

async function priceOf(id: number): Promise<string | null> {
  const [row] = await bed.database.prisma.$queryRawUnsafe<{ price: string | null }[]>(
    `SELECT price::text AS price FROM ${TARGET} WHERE id = $1`,
    id,
  );
  return row?.price ?? null;
}

describe('an outside transaction under use_lock, left open', () => {
  beforeEach(() => bed.guard(TABLE, 'ENFORCE'));

  it.each(IMMEDIATE)(
    "does not hold off an admin's force release; its commit then fails, naming the admin (SET CONSTRAINTS ALL IMMEDIATE: %s)",
    async (immediate) => {
      const token = await bed.lock(TABLE, 'key:nightly');
      const outside = await openLockedWrite(token, immediate);

      expect(isGranted(await forceRelease('stuck job'))).toBe(true);

      const refused = await refusal(() => outside.query('COMMIT'));
      expect(refused.code).toBe('TL006');
      expect(refused.message).toContain(`lock of ${TABLE} under token ${token} has ended`);
      expect(refused.message).toContain('admin force-released it (reason: stuck job)');
      expect(await priceOf(1)).toBe('1.50');
      expect(await bed.database.prisma.changeSet.count({ where: { tableName: TABLE } })).toBe(0);
    },
  );

  it('at REPEATABLE READ, whose snapshot still shows the old lock, cannot commit either', async () => {
    const token = await bed.lock(TABLE, 'key:nightly');
    const outside = await bed.connect();
    await outside.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await outside.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]);
    await outside.query(WRITE);
    expect(isGranted(await forceRelease('stuck job'))).toBe(true);
    await outside.query(`UPDATE ${TARGET} SET price = 10 WHERE id = 2`);

    const refused = await refusal(() => outside.query('COMMIT'));
    expect(refused.code).toBe('40001');
    expect(await priceOf(1)).toBe('1.50');
  });

  it('fails at its next write once the lock was force-released', async () => {
    const token = await bed.lock(TABLE, 'key:nightly');
    const outside = await openLockedWrite(token);
    expect(isGranted(await forceRelease('stuck job'))).toBe(true);

    const refused = await refusal(() =>
      outside.query(`UPDATE ${TARGET} SET price = 10 WHERE id = 2`),
    );
    expect(refused.code).toBe('TL006');
    expect(refused.message).toContain('admin force-released it');
    await outside.query('ROLLBACK');
  });

  it('cannot commit after another editor took the lock meanwhile', async () => {
    const token = await bed.lock(TABLE, 'key:nightly');
    const outside = await openLockedWrite(token);
    expect(isGranted(await forceRelease('stuck job'))).toBe(true);
    const newer = await bed.lock(TABLE, 'bob');

    const refused = await refusal(() => outside.query('COMMIT'));
    expect(refused.code).toBe('TL006');
    expect(refused.message).toContain('admin force-released it');
    expect(await priceOf(1)).toBe('1.50');
    // The new holder's own writes go through.
    const bobsJob = await bed.connect();
    await bobsJob.query('BEGIN');
    await bobsJob.query('SELECT tablelock.use_lock($1, $2)', [TABLE, newer]);
    await bobsJob.query(WRITE);
    await bobsJob.query('COMMIT');
    expect(await priceOf(1)).toBe('9');
  });

  it.each(IMMEDIATE)(
    'cannot commit once the lease has run out, judged at its commit (SET CONSTRAINTS ALL IMMEDIATE: %s)',
    async (immediate) => {
      const token = await bed.lock(TABLE, 'key:nightly');
      const outside = await openLockedWrite(token, immediate);
      // The lease runs out now, after the transaction began, its use_lock and its write.
      await bed.database.prisma.$executeRawUnsafe(
        'UPDATE tablelock.table_lock SET lease_expires_at = clock_timestamp() WHERE table_name = $1',
        TABLE,
      );

      const refused = await refusal(() => outside.query('COMMIT'));
      expect(refused.code).toBe('TL006');
      expect(refused.message).toContain('its lease ran out');
      expect(await priceOf(1)).toBe('1.50');
    },
  );
});

describe('a write without a token, left open', () => {
  beforeEach(() => bed.guard('categories', 'RECORD'));

  it.each(IMMEDIATE)(
    'holds off no acquisition of its table or of the tables referencing it (SET CONSTRAINTS ALL IMMEDIATE: %s)',
    async (immediate) => {
      const outside = await bed.connect();
      await outside.query('BEGIN');
      if (immediate === 'first') await outside.query('SET CONSTRAINTS ALL IMMEDIATE');
      await outside.query(`UPDATE ${MASTER_SCHEMA}.categories SET name = name WHERE false`);
      if (immediate === 'after its writes') await outside.query('SET CONSTRAINTS ALL IMMEDIATE');

      // products references categories: taking it locks categories as its FK target.
      const products = await acquireTableLock(bed.database.prisma, {
        tableName: 'products',
        editor: 'alice',
        leaseSeconds: 600,
      });
      expect(products).toMatchObject({
        granted: { lockedTables: expect.arrayContaining(['categories']) },
      });
      await forceReleaseTableLock(bed.database.prisma, {
        tableName: 'products',
        actor: 'admin',
        reason: 'next',
      });
      const categories = await acquireTableLock(bed.database.prisma, {
        tableName: 'categories',
        editor: 'bob',
        leaseSeconds: 600,
      });
      expect(isGranted(categories)).toBe(true);
      await outside.query('ROLLBACK');
    },
  );
});

describe('commits racing a force release and a new acquisition', () => {
  beforeEach(() => bed.guard(TABLE, 'ENFORCE'));

  it('never let a write under the old token commit after the new token was granted', async () => {
    const token = await bed.lock(TABLE, 'key:nightly');
    const racers = await Promise.all(Array.from({ length: 6 }, () => bed.connect()));
    const write = async (client: pg.Client, immediate: boolean) => {
      try {
        await client.query('BEGIN');
        if (immediate) await client.query('SET CONSTRAINTS ALL IMMEDIATE');
        await client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]);
        await client.query(`UPDATE ${TARGET} SET price = price + 1 WHERE id = 1`);
        await client.query('COMMIT');
        return 'committed';
      } catch (error) {
        await client.query('ROLLBACK');
        return (error as pg.DatabaseError).code ?? 'unknown';
      }
    };
    let committed = 0;
    let startRelease = () => {};
    const manyCommitted = new Promise<void>((resolve) => {
      startRelease = resolve;
    });
    // Each racer stops after a number of tries, so that the race ends whoever wins it.
    const race = racers.map(async (client, index) => {
      for (let attempt = 0; attempt < 30; attempt += 1) {
        const outcome = await write(client, index % 2 === 1);
        if (outcome !== 'committed') return outcome;
        committed += 1;
        if (committed === 12) startRelease();
      }
      return 'committed';
    });
    await manyCommitted;
    expect(isGranted(await forceRelease('race'))).toBe(true);
    // Racers still at their commit hold the row a moment: the acquisition waits for them.
    const newer = await acquireTableLock(bed.database.prisma, {
      tableName: TABLE,
      editor: 'bob',
      leaseSeconds: 600,
      waitForRows: true,
    });
    expect(isGranted(newer)).toBe(true);
    const priceWhenGranted = await priceOf(1);
    const outcomes = await Promise.all(race);

    expect(await priceOf(1)).toBe(priceWhenGranted);
    expect(Number(priceWhenGranted)).toBe(1.5 + committed);
    for (const outcome of outcomes) expect(['committed', 'TL001', 'TL006']).toContain(outcome);
    expect(await Promise.all(racers.map((client) => write(client, false)))).toEqual(
      Array(racers.length).fill('TL001'),
    );
  });
});
