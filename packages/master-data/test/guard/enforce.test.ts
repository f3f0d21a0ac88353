import { forceReleaseTableLock } from '@tablelock/lock';
import { MASTER_SCHEMA } from '@tablelock/test-support';
import type pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { TABLE, TARGET, useGuardTestbed, WRITES } from './guardTestbed';
import { refusal } from './otherWriter';

const bed = useGuardTestbed();

describe('the write guard at ENFORCE', () => {
  beforeEach(() => bed.guard(TABLE, 'ENFORCE'));

  it.each(Object.keys(WRITES))(
    'refuses %s without a token while nobody holds the lock',
    async (kind) => {
      const client = await bed.connect();
      const refused = await refusal(() => WRITES[kind]?.(client) ?? Promise.resolve());
      expect(refused.code).toBe('TL002');
      expect(refused.message).toContain(TABLE);
      expect(refused.message).toContain('nobody holds it: take the lock first');
      expect(refused.hint).toContain(`tablelock lock ${TABLE} --`);
      const rows = await bed.database.prisma.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM ${TARGET} WHERE price = 1.50`,
      );
      expect(rows[0]?.n).toBe(1);
    },
  );

  it('names the holder when a write without the token is refused', async () => {
    await bed.lock(TABLE, 'alice');
    const client = await bed.connect();
    const refused = await refusal(() => client.query(`UPDATE ${TARGET} SET price = 9`));
    expect(refused.code).toBe('TL002');
    expect(refused.message).toContain('being edited by alice');
  });

  it('lets a write with the current token through and records whose lock it was', async () => {
    const token = await bed.lock(TABLE, 'key:nightly');
    const client = await bed.connect();
    await client.query('BEGIN');
    await client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]);
    for (const kind of ['UPDATE', 'DELETE', 'COPY']) await WRITES[kind]?.(client);
    await client.query('COMMIT');
    const [changeSet] = await bed.database.prisma.changeSet.findMany({
      where: { tableName: TABLE },
    });
    expect(changeSet).toMatchObject({
      kind: 'locked_write',
      actor: 'key:nightly',
      token: BigInt(token),
      dbRole: bed.writer.role,
      applicationName: 'nightly-etl',
      rowsInserted: 1,
      rowsUpdated: 1,
      rowsDeleted: 1,
    });
    const changes = await bed.database.prisma.rowChange.findMany({
      where: { changeSetId: changeSet?.id },
      orderBy: { id: 'asc' },
    });
    expect(
      changes.map(({ rowKey, operation, oldValues, newValues }) => ({
        rowKey,
        operation,
        oldValues,
        newValues,
      })),
    ).toEqual([
      {
        rowKey: { id: '1' },
        operation: 'update',
        oldValues: { price: '1.50' },
        newValues: { price: '9' },
      },
      {
        rowKey: { id: '2' },
        operation: 'delete',
        oldValues: { id: '2', name: 'nut', price: '0.20' },
        newValues: null,
      },
      {
        rowKey: { id: '3' },
        operation: 'insert',
        oldValues: null,
        newValues: { id: '3', name: 'washer', price: '0.05' },
      },
    ]);
  });

  it('refuses the token of a lock that was force-released', async () => {
    const token = await bed.lock(TABLE, 'key:nightly');
    await forceReleaseTableLock(bed.database.prisma, {
      tableName: TABLE,
      actor: 'admin',
      reason: 'test',
    });
    const client = await bed.connect();
    await client.query('BEGIN');
    const refused = await refusal(() =>
      client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]),
    );
    expect(refused.code).toBe('TL001');
    expect(refused.message).toContain(`token ${token} is not the current lock of ${TABLE}`);
  });

  it("refuses another table's token", async () => {
    await bed.lock(TABLE, 'key:nightly');
    const other = await bed.lock('currencies', 'key:nightly');
    const client = await bed.connect();
    await client.query('BEGIN');
    const refused = await refusal(() =>
      client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, other]),
    );
    expect(refused.code).toBe('TL001');
  });

  it('refuses every write to a table locked as an FK target', async () => {
    await bed.guard('categories', 'ENFORCE');
    await bed.lock('products', 'alice');
    const client = await bed.connect();
    const refused = await refusal(() =>
      client.query(`UPDATE ${MASTER_SCHEMA}.categories SET name = name WHERE id = 1`),
    );
    expect(refused.code).toBe('TL003');
    expect(refused.message).toContain('categories is locked while products is edited');
  });

  it('never lets a write with the old token commit after a force release', async () => {
    const token = await bed.lock(TABLE, 'key:nightly');
    const racers = await Promise.all(Array.from({ length: 8 }, () => bed.connect()));
    const write = async (client: pg.Client) => {
      try {
        await client.query('BEGIN');
        await client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]);
        await client.query(`UPDATE ${TARGET} SET price = price + 1 WHERE id = 1`);
        await client.query('COMMIT');
        return 'committed';
      } catch (error) {
        await client.query('ROLLBACK');
        return (error as pg.DatabaseError).code;
      }
    };
    let committed = 0;
    let startRelease = () => {};
    const manyCommitted = new Promise<void>((resolve) => {
      startRelease = resolve;
    });
    // Each racer stops after a number of tries, so that the race ends whoever wins it.
    const race = racers.map(async (client) => {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const outcome = await write(client);
        if (outcome !== 'committed') return outcome;
        committed += 1;
        if (committed === 16) startRelease();
      }
      return 'committed';
    });
    await manyCommitted;
    await forceReleaseTableLock(bed.database.prisma, {
      tableName: TABLE,
      actor: 'admin',
      reason: 'race',
    });
    const price = async () => {
      const [row] = await bed.database.prisma.$queryRawUnsafe<{ price: string }[]>(
        `SELECT price::text AS price FROM ${TARGET} WHERE id = 1`,
      );
      return Number(row?.price);
    };
    const afterRelease = await price();
    const outcomes = await Promise.all(race);
    expect(await price()).toBe(afterRelease);
    expect(afterRelease).toBe(1.5 + committed);
    // Stopped by the release at use_lock (TL001), or at their write or commit (TL006).
    for (const outcome of outcomes) expect(['committed', 'TL001', 'TL006']).toContain(outcome);
    expect(await Promise.all(racers.map(write))).toEqual(Array(8).fill('TL001'));
  });
});
