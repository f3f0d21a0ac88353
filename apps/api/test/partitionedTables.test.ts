import { Writable } from 'node:stream';
import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { setTablePolicyMutation } from './support/governanceOperations';
import { acquireTableLockMutation, refusal } from './support/lockOperations';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

// Partitioned tables are no master tables (issue 40, item 3; README, "The write guard"): a user
// who tries to lock one, or an admin who tries to guard one, learns why; the sync says so.
let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let admin: TestClient;
const warnings: { msg: string; tables?: string[] }[] = [];

const syncTableRegistryMutation = graphql(`
  mutation SyncTableRegistryLeftOut {
    syncTableRegistry {
      added
      leftOut
    }
  }
`);

beforeAll(async () => {
  database = await createTestDatabase();
  await database.prisma.$executeRawUnsafe(
    'CREATE TABLE master.ledger (id integer PRIMARY KEY, amount numeric) PARTITION BY RANGE (id)',
  );
  await database.prisma.$executeRawUnsafe(
    'CREATE TABLE master.ledger_low PARTITION OF master.ledger FOR VALUES FROM (0) TO (100)',
  );
  const logStream = new Writable({
    write(line, _encoding, done) {
      warnings.push(JSON.parse(String(line)));
      done();
    },
  });
  api = await startTestApi(database, { logger: pino({ level: 'warn' }, logStream) });
  [alice, admin] = await Promise.all([api.loginAs('alice'), api.loginAs('admin')]);
});
afterAll(async () => {
  await api?.stop();
  await database?.close();
});

describe('a partitioned table', () => {
  it('is left out by the sync, with a warning that says what to do', async () => {
    const sync = await execute(admin, syncTableRegistryMutation);
    expect(sync.errors).toBeUndefined();
    expect(sync.data?.syncTableRegistry).toEqual({ added: [], leftOut: ['ledger', 'ledger_low'] });
    expect(warnings).toEqual([
      expect.objectContaining({
        tables: ['ledger', 'ledger_low'],
        msg: expect.stringContaining('To lock and guard one, store it unpartitioned'),
      }),
    ]);
  });

  it('cannot be locked, waited for or guarded: TABLE_PARTITIONED', async () => {
    for (const table of ['ledger', 'ledger_low']) {
      for (const wait of [undefined, 5]) {
        const answer = await execute(alice, acquireTableLockMutation, { table, wait });
        expect(refusal(answer)).toEqual({
          code: 'TABLE_PARTITIONED',
          message: expect.stringContaining('tablelock neither locks nor guards partitioned tables'),
        });
      }
      const guard = await execute(admin, setTablePolicyMutation, {
        table,
        policy: { writeGuard: 'ENFORCE' },
      });
      expect(refusal(guard).code).toBe('TABLE_PARTITIONED');
    }
    expect(await database.prisma.tablePolicy.count()).toBe(0);
    expect(await database.prisma.lockWaiter.count()).toBe(0);
  });
});
