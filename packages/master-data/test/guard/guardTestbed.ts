import { acquireTableLock, grantedOrConflict, syncTableRegistry } from '@tablelock/lock';
import {
  createTestDatabase,
  MASTER_SCHEMA,
  resetLockRegistry,
  type TestDatabase,
} from '@tablelock/test-support';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { syncWriteGuards, type WriteGuard } from '../../src';
import { copyInto, createOtherWriter, type OtherWriter } from './otherWriter';

/** A master table of the test's own, with no FK to or from it: two rows at each test's start. */
export const TABLE = 'guarded_items';
export const TARGET = `${MASTER_SCHEMA}.${TABLE}`;

/** The writes the guard judges, each by the other writer on TABLE. */
export const WRITES: Record<string, (client: pg.Client) => Promise<unknown>> = {
  UPDATE: (client) => client.query(`UPDATE ${TARGET} SET price = 9 WHERE id = 1`),
  DELETE: (client) => client.query(`DELETE FROM ${TARGET} WHERE id = 2`),
  TRUNCATE: (client) => client.query(`TRUNCATE ${TARGET}`),
  COPY: (client) => copyInto(client, TARGET, ['3\twasher\t0.05']),
};

export interface GuardTestbed {
  database: TestDatabase;
  writer: OtherWriter;
  /** Sets `tableName`'s guard by policy and installs it (other tables: OFF). */
  guard(tableName: string, writeGuard: WriteGuard): Promise<void>;
  /** A connection of the other writer, closed after the test. */
  connect(applicationName?: string): Promise<pg.Client>;
  /** Takes the lock of `tableName` for `editor`; its fencing token. */
  lock(tableName: string, editor: string): Promise<string>;
}

/** Registers the hooks of a test file about the write guard, and what its tests use. */
export function useGuardTestbed(): GuardTestbed {
  const clients: pg.Client[] = [];
  const bed = {} as GuardTestbed;
  beforeAll(async () => {
    bed.database = await createTestDatabase();
    const { prisma } = bed.database;
    await prisma.$executeRawUnsafe(
      `CREATE TABLE ${TARGET} (id integer PRIMARY KEY, name text NOT NULL, price numeric)`,
    );
    await syncTableRegistry(prisma, MASTER_SCHEMA);
    bed.writer = await createOtherWriter(prisma, bed.database.url, MASTER_SCHEMA);
  });
  afterAll(() => bed.database.close());
  beforeEach(async () => {
    const { prisma } = bed.database;
    await resetLockRegistry(prisma);
    // No policy left: every table unguarded, so that the test's own setup may write.
    await syncWriteGuards(prisma, MASTER_SCHEMA, 'OFF');
    await prisma.$executeRawUnsafe(`TRUNCATE ${TARGET}`);
    await prisma.$executeRawUnsafe(
      `INSERT INTO ${TARGET} VALUES (1, 'bolt', 1.50), (2, 'nut', 0.20)`,
    );
    await prisma.$executeRawUnsafe('TRUNCATE tablelock.row_change, tablelock.change_set');
    await prisma.lockEvent.deleteMany({ where: { action: 'unlocked_write' } });
  });
  afterEach(() => Promise.all(clients.splice(0).map((client) => client.end())));
  bed.guard = async (tableName, writeGuard) => {
    await bed.database.prisma.tablePolicy.upsert({
      where: { tableName },
      create: { tableName, writeGuard },
      update: { writeGuard },
    });
    await syncWriteGuards(bed.database.prisma, MASTER_SCHEMA, 'OFF');
  };
  bed.connect = async (applicationName) => {
    const client = await bed.writer.connect(applicationName);
    clients.push(client);
    return client;
  };
  bed.lock = async (tableName, editor) => {
    const answer = await acquireTableLock(bed.database.prisma, {
      tableName,
      editor,
      leaseSeconds: 600,
    });
    return grantedOrConflict(answer).fencingToken;
  };
  return bed;
}
