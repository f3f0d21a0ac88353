import {
  acquireTableLock,
  forceReleaseTableLock,
  grantedOrConflict,
  syncTableRegistry,
} from '@tablelock/lock';
import {
  createTestDatabase,
  MASTER_SCHEMA,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { syncWriteGuards, type WriteGuard } from '../../src';
import { copyInto, createOtherWriter, type OtherWriter, refusal } from './otherWriter';

let database: TestDatabase;
let writer: OtherWriter;
const clients: pg.Client[] = [];

const TABLE = 'guarded_items';

beforeAll(async () => {
  database = await createTestDatabase();
  await database.prisma.$executeRawUnsafe(
    `CREATE TABLE ${MASTER_SCHEMA}.${TABLE} (id integer PRIMARY KEY, name text NOT NULL, price numeric)`,
  );
  await syncTableRegistry(database.prisma, MASTER_SCHEMA);
  writer = await createOtherWriter(database.prisma, database.url, MASTER_SCHEMA);
});
afterAll(() => database.close());
beforeEach(async () => {
  await resetLockRegistry(database.prisma);
  // No policy left: every table unguarded, so that the test's own setup may write.
  await syncWriteGuards(database.prisma, MASTER_SCHEMA, 'OFF');
  await database.prisma.$executeRawUnsafe(`TRUNCATE ${MASTER_SCHEMA}.${TABLE}`);
  await database.prisma.$executeRawUnsafe(
    `INSERT INTO ${MASTER_SCHEMA}.${TABLE} VALUES (1, 'bolt', 1.50), (2, 'nut', 0.20)`,
  );
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.end()));
});

async function guard(tableName: string, writeGuard: WriteGuard) {
  await database.prisma.tablePolicy.upsert({
    where: { tableName },
    create: { tableName, writeGuard },
    update: { writeGuard },
  });
  await syncWriteGuards(database.prisma, MASTER_SCHEMA, 'OFF');
}

async function connect(applicationName?: string) {
  const client = await writer.connect(applicationName);
  clients.push(client);
  return client;
}

async function lock(tableName: string, editor: string) {
  const grant = grantedOrConflict(
    await acquireTableLock(database.prisma, { tableName, editor, leaseSeconds: 600 }),
  );
  return grant.fencingToken;
}

const target = `${MASTER_SCHEMA}.${TABLE}`;
const writes: Record<string, (client: pg.Client) => Promise<unknown>> = {
  UPDATE: (client) => client.query(`UPDATE ${target} SET price = 9 WHERE id = 1`),
  DELETE: (client) => client.query(`DELETE FROM ${target} WHERE id = 2`),
  TRUNCATE: (client) => client.query(`TRUNCATE ${target}`),
  COPY: (client) => copyInto(client, target, ['3\twasher\t0.05']),
};

describe('the write guard at ENFORCE', () => {
  beforeEach(() => guard(TABLE, 'ENFORCE'));

  it.each(Object.keys(writes))(
    'refuses %s without a token while nobody holds the lock',
    async (kind) => {
      const client = await connect();
      const refused = await refusal(() => writes[kind]?.(client) ?? Promise.resolve());
      expect(refused.code).toBe('TL002');
      expect(refused.message).toContain(TABLE);
      expect(refused.message).toContain('nobody holds it: take the lock first');
      expect(refused.hint).toContain(`tablelock lock ${TABLE} --`);
      const rows = await database.prisma.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM ${target} WHERE price = 1.50`,
      );
      expect(rows[0]?.n).toBe(1);
    },
  );

  it('names the holder when a write without the token is refused', async () => {
    await lock(TABLE, 'alice');
    const client = await connect();
    const refused = await refusal(() => client.query(`UPDATE ${target} SET price = 9`));
    expect(refused.code).toBe('TL002');
    expect(refused.message).toContain('being edited by alice');
  });

  it('lets a write with the current token through and records whose lock it was', async () => {
    const token = await lock(TABLE, 'key:nightly');
    const client = await connect();
    await client.query('BEGIN');
    await client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]);
    for (const kind of ['UPDATE', 'DELETE', 'COPY']) await writes[kind]?.(client);
    await client.query('COMMIT');
    const [changeSet] = await database.prisma.changeSet.findMany({ where: { tableName: TABLE } });
    expect(changeSet).toMatchObject({
      kind: 'locked_write',
      actor: 'key:nightly',
      token: BigInt(token),
      dbRole: writer.role,
      applicationName: 'nightly-etl',
      rowsInserted: 1,
      rowsUpdated: 1,
      rowsDeleted: 1,
    });
    const changes = await database.prisma.rowChange.findMany({
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
    const token = await lock(TABLE, 'key:nightly');
    await forceReleaseTableLock(database.prisma, {
      tableName: TABLE,
      actor: 'admin',
      reason: 'test',
    });
    const client = await connect();
    await client.query('BEGIN');
    const refused = await refusal(() =>
      client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]),
    );
    expect(refused.code).toBe('TL001');
    expect(refused.message).toContain(`token ${token} is not the current lock of ${TABLE}`);
  });

  it("refuses another table's token", async () => {
    await lock(TABLE, 'key:nightly');
    const other = await lock('currencies', 'key:nightly');
    const client = await connect();
    await client.query('BEGIN');
    const refused = await refusal(() =>
      client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, other]),
    );
    expect(refused.code).toBe('TL001');
  });

  it('refuses every write to a table locked as an FK target', async () => {
    await guard('categories', 'ENFORCE');
    await lock('products', 'alice');
    const client = await connect();
    const refused = await refusal(() =>
      client.query(`UPDATE ${MASTER_SCHEMA}.categories SET name = name WHERE id = 1`),
    );
    expect(refused.code).toBe('TL003');
    expect(refused.message).toContain('categories is locked while products is edited');
  });

  it('never lets a write with the old token commit after a force release', async () => {
    const token = await lock(TABLE, 'key:nightly');
    const racers = await Promise.all(Array.from({ length: 8 }, () => connect()));
    const write = async (client: pg.Client) => {
      try {
        await client.query('BEGIN');
        await client.query('SELECT tablelock.use_lock($1, $2)', [TABLE, token]);
        await client.query(`UPDATE ${target} SET price = price + 1 WHERE id = 1`);
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
    // Share lockers can keep an update of the lock row waiting for ever, so each racer stops
    // after a number of tries; the release gets in among them.
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
    await forceReleaseTableLock(database.prisma, {
      tableName: TABLE,
      actor: 'admin',
      reason: 'race',
    });
    const price = async () => {
      const [row] = await database.prisma.$queryRawUnsafe<{ price: string }[]>(
        `SELECT price::text AS price FROM ${target} WHERE id = 1`,
      );
      return Number(row?.price);
    };
    const afterRelease = await price();
    const outcomes = await Promise.all(race);
    expect(await price()).toBe(afterRelease);
    expect(afterRelease).toBe(1.5 + committed);
    expect(outcomes.filter((outcome) => outcome !== 'committed')).toEqual(
      Array(outcomes.filter((outcome) => outcome !== 'committed').length).fill('TL001'),
    );
    expect(await Promise.all(racers.map(write))).toEqual(Array(8).fill('TL001'));
  });
});
