import { LOCK_CHANNEL, syncTableRegistry } from '@tablelock/lock';
import { MASTER_SCHEMA } from '@tablelock/test-support';
import { beforeEach, describe, expect, it } from 'vitest';
import { readHistoryGauges, saveRows, syncWriteGuards } from '../../src';
import { TABLE, TARGET, useGuardTestbed, WRITES } from './guardTestbed';

const bed = useGuardTestbed();

describe('the write guard at RECORD', () => {
  beforeEach(() => bed.guard(TABLE, 'RECORD'));

  it.each(Object.keys(WRITES))(
    'lets %s through without a token and records it as an unlocked write',
    async (kind) => {
      const client = await bed.connect('nightly-etl');
      const listener = await bed.connect();
      const heard = new Promise<Record<string, unknown>>((resolve) => {
        listener.on('notification', (message) => resolve(JSON.parse(message.payload ?? '{}')));
      });
      await listener.query(`LISTEN ${LOCK_CHANNEL}`);
      await WRITES[kind]?.(client);
      const changeSets = await bed.database.prisma.changeSet.findMany({
        where: { tableName: TABLE },
      });
      expect(changeSets).toMatchObject([
        { kind: 'unlocked_write', token: null, actor: null, dbRole: bed.writer.role },
      ]);
      const changeSet = changeSets[0];
      const rows = changeSet
        ? changeSet.rowsInserted + changeSet.rowsUpdated + changeSet.rowsDeleted
        : 0;
      expect(rows).toBeGreaterThan(0);
      expect(
        await bed.database.prisma.rowChange.count({ where: { changeSetId: changeSet?.id } }),
      ).toBe(rows);
      const [event] = await bed.database.prisma.lockEvent.findMany({
        where: { tableName: TABLE, action: 'unlocked_write' },
      });
      expect(event).toMatchObject({
        actor: `db:${bed.writer.role}`,
        rowsChanged: rows,
        details: { dbRole: bed.writer.role, applicationName: 'nightly-etl' },
      });
      expect(await readHistoryGauges(bed.database.prisma)).toMatchObject({ unlockedWrites: 1 });
      expect(await heard).toMatchObject({
        action: 'unlocked_write',
        table: TABLE,
        id: event?.id.toString(),
      });
    },
  );

  it('keeps no history of a transaction that was rolled back', async () => {
    const client = await bed.connect();
    await client.query('BEGIN');
    await client.query(`UPDATE ${TARGET} SET price = 9`);
    await client.query('ROLLBACK');
    expect(await bed.database.prisma.changeSet.count()).toBe(0);
    expect(await bed.database.prisma.rowChange.count()).toBe(0);
    expect(await bed.database.prisma.lockEvent.count({ where: { action: 'unlocked_write' } })).toBe(
      0,
    );
  });

  it("records tablelock's own save with its editor, token and the save event's changeSetId", async () => {
    const token = await bed.lock(TABLE, 'alice');
    const [{ version = '' } = {}] = await bed.database.prisma.$queryRawUnsafe<
      { version: string }[]
    >(`SELECT xmin::text AS version FROM ${TARGET} WHERE id = 1`);
    await saveRows(bed.database.prisma, {
      schema: MASTER_SCHEMA,
      tableName: TABLE,
      holder: 'alice',
      token,
      changes: { updates: [{ key: { id: '1' }, version, values: { name: 'hex bolt' } }] },
    });
    const [changeSet] = await bed.database.prisma.changeSet.findMany({
      where: { tableName: TABLE },
    });
    expect(changeSet).toMatchObject({ kind: 'save', actor: 'alice', token: BigInt(token) });
    const [event] = await bed.database.prisma.lockEvent.findMany({
      where: { tableName: TABLE, action: 'save' },
    });
    expect(event?.details).toMatchObject({ changeSetId: changeSet?.id.toString() });
    expect(
      await bed.database.prisma.rowChange.findMany({ where: { changeSetId: changeSet?.id } }),
    ).toMatchObject([
      {
        rowKey: { id: '1' },
        operation: 'update',
        oldValues: { name: 'bolt' },
        newValues: { name: 'hex bolt' },
      },
    ]);
  });
});

describe('the registry sync', () => {
  it('keeps the guard on a renamed table, and says which triggers it installs and removes', async () => {
    const { prisma } = bed.database;
    await prisma.$executeRawUnsafe(`CREATE TABLE ${MASTER_SCHEMA}.sync_probe (id int PRIMARY KEY)`);
    await syncTableRegistry(prisma, MASTER_SCHEMA);
    const installed = await syncWriteGuards(prisma, MASTER_SCHEMA, 'RECORD');
    expect(installed.installed).toContainEqual({ tableName: 'sync_probe', guard: 'RECORD' });
    expect(await syncWriteGuards(prisma, MASTER_SCHEMA, 'RECORD')).toEqual({
      installed: [],
      removed: [],
      failed: [],
    });

    await prisma.$executeRawUnsafe(
      `ALTER TABLE ${MASTER_SCHEMA}.sync_probe RENAME TO sync_probe_2`,
    );
    await syncTableRegistry(prisma, MASTER_SCHEMA);
    await prisma.$executeRawUnsafe(`INSERT INTO ${MASTER_SCHEMA}.sync_probe_2 VALUES (1)`);
    expect(await prisma.changeSet.findMany({ where: { tableName: 'sync_probe_2' } })).toMatchObject(
      [{ kind: 'unlocked_write', rowsInserted: 1 }],
    );

    await prisma.tablePolicy.create({ data: { tableName: 'sync_probe_2', writeGuard: 'OFF' } });
    expect((await syncWriteGuards(prisma, MASTER_SCHEMA, 'RECORD')).removed).toEqual([
      'sync_probe_2',
    ]);
    await prisma.$executeRawUnsafe(`DROP TABLE ${MASTER_SCHEMA}.sync_probe_2`);
  });
});
