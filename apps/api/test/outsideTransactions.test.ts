import { createOtherDatabaseLogin } from '@tablelock/test-support';
import pg from 'pg';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { setTablePolicyMutation } from './support/governanceOperations';
import {
  acquireTableLockAs,
  acquireTableLockMutation,
  forceReleaseMutation,
  refusal,
} from './support/lockOperations';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

// Issue 40, item 4: a transaction outside tablelock that held a lock's registry row (a database
// login under use_lock, left open) made an admin's forceRelease fail after 5 s, and an
// acquisition it held off said only that "another change" was in progress, not whose.
const signedIn = useSignedInApi();
let otherLoginUrl: string;

beforeAll(async () => {
  const { prisma, url } = signedIn.database;
  otherLoginUrl = (await createOtherDatabaseLogin(prisma, url, 'master')).url;
});

/** A connection of its own as `url`'s login, with `applicationName`, closed after the test. */
async function connect(url: string, applicationName: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: applicationName });
  await client.connect();
  onTestFinished(() => client.end());
  return client;
}

/** A session outside tablelock (a DBA's psql) that keeps `table`'s registry row locked. */
async function holdRegistryRow(table: string) {
  const psql = await connect(signedIn.database.url, 'psql');
  await psql.query('BEGIN');
  await psql.query('SELECT 1 FROM tablelock.table_lock WHERE table_name = $1 FOR UPDATE', [table]);
  const { rows } = await psql.query<{ pid: number; role: string; since: Date }>(
    'SELECT pg_backend_pid() AS pid, current_user AS role, now() AS since',
  );
  const [holder] = rows;
  if (!holder) throw new Error('no session');
  return holder;
}

describe('a transaction outside tablelock', () => {
  it("under use_lock and left open, does not hold off an admin's forceRelease, and cannot commit after it", async () => {
    const policy = await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'currencies',
      policy: { writeGuard: 'ENFORCE' },
    });
    expect(policy.errors).toBeUndefined();
    const grant = await acquireTableLockAs(signedIn.alice, 'currencies');
    const job = await connect(otherLoginUrl, 'nightly-etl');
    await job.query('BEGIN');
    await job.query('SELECT tablelock.use_lock($1, $2)', ['currencies', grant.token]);
    await job.query("UPDATE master.currencies SET name = 'Euro (old)' WHERE code = 'EUR'");

    const released = await execute(signedIn.admin, forceReleaseMutation, {
      table: 'currencies',
      reason: 'stuck job',
    });
    expect(released.errors).toBeUndefined();

    await expect(job.query('COMMIT')).rejects.toMatchObject({
      code: 'TL006',
      message: expect.stringContaining('admin force-released it (reason: stuck job)'),
    });
    const [euro] = await signedIn.database.prisma.$queryRaw<{ name: string }[]>`
      SELECT name FROM master.currencies WHERE code = 'EUR'`;
    expect(euro?.name).not.toBe('Euro (old)');
  });

  it('holding a registry row, is named by the acquisition it holds off: role, application, since when', async () => {
    const holder = await holdRegistryRow('regions');

    const response = await execute(signedIn.bob, acquireTableLockMutation, { table: 'regions' });

    expect(refusal(response)).toEqual({
      code: 'LOCK_CONFLICT',
      message: expect.stringContaining(
        `held by database role ${holder.role} (application psql, pid ${holder.pid}) in a transaction since ${holder.since.toISOString()}`,
      ),
    });
    expect(response.errors?.[0]?.extensions).toMatchObject({
      rowHolders: [
        {
          pid: holder.pid,
          dbRole: holder.role,
          applicationName: 'psql',
          since: holder.since.toISOString(),
        },
      ],
    });
  });

  it('holding a registry row, is named by the forceRelease that waited for it in vain', async () => {
    await acquireTableLockAs(signedIn.alice, 'warehouses');
    const holder = await holdRegistryRow('warehouses');

    const response = await execute(signedIn.admin, forceReleaseMutation, {
      table: 'warehouses',
      reason: 'stale',
    });

    expect(refusal(response)).toEqual({
      code: 'LOCK_CONFLICT',
      message: expect.stringContaining(
        `held by database role ${holder.role} (application psql, pid ${holder.pid})`,
      ),
    });
    expect(response.errors?.[0]?.extensions).toMatchObject({
      rowHolders: [{ pid: holder.pid, applicationName: 'psql' }],
    });
  });
});
