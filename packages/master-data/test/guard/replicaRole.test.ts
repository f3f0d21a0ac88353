import { MASTER_SCHEMA } from '@tablelock/test-support';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readWriteGuardStatus, syncWriteGuards } from '../../src';
import { TABLE, TARGET, useGuardTestbed } from './guardTestbed';
import { refusal } from './otherWriter';

// Issue 38: a session with session_replication_role = replica fires no ordinary trigger, so it
// wrote a guarded table past the guard and its history. Such sessions are logical
// replication's apply, pg_restore --disable-triggers, and since PG 15 any role granted SET on
// the setting, as the other writer is here.
const bed = useGuardTestbed();

/** The role whose members' replica sessions pass the guard (README, "The write guard"). */
const REPLICATION_ROLE = 'tablelock_replication';

beforeAll(async () => {
  await bed.database.prisma.$executeRawUnsafe(
    `GRANT SET ON PARAMETER session_replication_role TO ${bed.writer.role}`,
  );
});

async function asReplica(): Promise<pg.Client> {
  const client = await bed.connect('subscriber');
  await client.query('SET session_replication_role = replica');
  return client;
}

async function priceOf(id: number): Promise<string | null> {
  const [row] = await bed.database.prisma.$queryRawUnsafe<{ price: string | null }[]>(
    `SELECT price::text AS price FROM ${TARGET} WHERE id = $1`,
    id,
  );
  return row?.price ?? null;
}

describe('a session in replica mode', () => {
  it('is refused at ENFORCE', async () => {
    await bed.guard(TABLE, 'ENFORCE');
    const client = await asReplica();
    const refused = await refusal(() => client.query(`UPDATE ${TARGET} SET price = 9`));
    expect(refused.code).toBe('TL002');
    expect(await priceOf(1)).toBe('1.50');
  });

  it('is kept as an unlocked write at RECORD, announced like any other', async () => {
    await bed.guard(TABLE, 'RECORD');
    const client = await asReplica();
    await client.query(`UPDATE ${TARGET} SET price = 9 WHERE id = 1`);
    expect(
      await bed.database.prisma.changeSet.findMany({ where: { tableName: TABLE } }),
    ).toMatchObject([{ kind: 'unlocked_write', dbRole: bed.writer.role, rowsUpdated: 1 }]);
    expect(
      await bed.database.prisma.lockEvent.findMany({
        where: { tableName: TABLE, action: 'unlocked_write' },
      }),
    ).toMatchObject([{ actor: `db:${bed.writer.role}`, rowsChanged: 1 }]);
  });
});

describe(`members of ${REPLICATION_ROLE}`, () => {
  beforeAll(async () => {
    const { prisma } = bed.database;
    // Roles are the cluster's: made once, whichever test database asks first.
    await prisma.$executeRawUnsafe(`DO $$ BEGIN
      IF to_regrole('${REPLICATION_ROLE}') IS NULL THEN CREATE ROLE ${REPLICATION_ROLE} NOLOGIN; END IF;
    END $$`);
    await prisma.$executeRawUnsafe(`GRANT ${REPLICATION_ROLE} TO ${bed.writer.role}`);
  });
  afterAll(() =>
    bed.database.prisma.$executeRawUnsafe(`REVOKE ${REPLICATION_ROLE} FROM ${bed.writer.role}`),
  );
  beforeEach(() => bed.guard(TABLE, 'ENFORCE'));

  it('apply in replica mode at ENFORCE, kept as unlocked writes', async () => {
    const client = await asReplica();
    await client.query(`UPDATE ${TARGET} SET price = 9 WHERE id = 1`);
    expect(await priceOf(1)).toBe('9');
    expect(
      await bed.database.prisma.changeSet.findMany({ where: { tableName: TABLE } }),
    ).toMatchObject([
      { kind: 'unlocked_write', dbRole: bed.writer.role, applicationName: 'subscriber' },
    ]);
  });

  it('are judged like anyone outside replica mode', async () => {
    const client = await bed.connect();
    const refused = await refusal(() => client.query(`UPDATE ${TARGET} SET price = 9`));
    expect(refused.code).toBe('TL002');
  });
});

describe('the drift check', () => {
  it('sees a guard trigger that does not fire always, and the sync makes it so again', async () => {
    await bed.guard(TABLE, 'ENFORCE');
    const { prisma } = bed.database;
    const unguarded = async () =>
      (await readWriteGuardStatus(prisma, MASTER_SCHEMA, 'OFF')).unguardedTables;
    expect(await unguarded()).toEqual([]);
    // What a table owner's ALTER TABLE leaves: the trigger fires for origin sessions only.
    await prisma.$executeRawUnsafe(`ALTER TABLE ${TARGET} ENABLE TRIGGER tablelock_guard_update`);
    expect(await unguarded()).toMatchObject([
      { tableName: TABLE, wanted: 'ENFORCE', installed: null },
    ]);
    await syncWriteGuards(prisma, MASTER_SCHEMA, 'OFF');
    expect(await unguarded()).toEqual([]);
    const client = await asReplica();
    expect((await refusal(() => client.query(`UPDATE ${TARGET} SET price = 9`))).code).toBe(
      'TL002',
    );
  });
});
