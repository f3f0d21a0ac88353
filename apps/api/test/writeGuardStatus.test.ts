import { syncWriteGuards } from '@tablelock/master-data';
import { MASTER_SCHEMA } from '@tablelock/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { setTablePolicyMutation } from './support/governanceOperations';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

const signedIn = useSignedInApi();

const statusQuery = graphql(`
  query WriteGuardStatus {
    writeGuardStatus {
      defaultGuard
      unguardedTables {
        table
        wanted
        installed
        grant
      }
      historyBytes
      unlockedWrites
    }
  }
`);

describe('writeGuardStatus', () => {
  // As the API does when it starts (startTestApi leaves the test's tables unguarded).
  beforeAll(() => syncWriteGuards(signedIn.database.prisma, MASTER_SCHEMA, 'RECORD'));

  it('names a table whose triggers are not its guard, with the statement that fixes it', async () => {
    const before = await execute(signedIn.admin, statusQuery);
    expect(before.errors).toBeUndefined();
    expect(before.data?.writeGuardStatus.defaultGuard).toBe('RECORD');
    expect(before.data?.writeGuardStatus.unguardedTables).toEqual([]);

    await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'currencies',
      policy: { writeGuard: 'ENFORCE' },
    });
    // What a table owner who removes a trigger, or a table tablelock does not own, leaves.
    await signedIn.database.prisma
      .$executeRaw`DROP TRIGGER tablelock_guard_update ON master.currencies`;
    const after = await execute(signedIn.admin, statusQuery);
    const [role] = await signedIn.database.prisma.$queryRaw<{ name: string }[]>`
      SELECT current_user::text AS name`;
    expect(after.data?.writeGuardStatus.unguardedTables).toEqual([
      {
        table: 'currencies',
        wanted: 'ENFORCE',
        installed: null,
        grant: `ALTER TABLE "master"."currencies" OWNER TO "${role?.name}";`,
      },
    ]);
  });

  it("tells the row history's size and its unlocked writes", async () => {
    const empty = (await execute(signedIn.admin, statusQuery)).data?.writeGuardStatus;
    await signedIn.database.prisma.$executeRaw`UPDATE master.regions SET name = name || ' '`;
    const after = (await execute(signedIn.admin, statusQuery)).data?.writeGuardStatus;
    expect(after?.unlockedWrites).toBe((empty?.unlockedWrites ?? 0) + 1);
    expect(after?.historyBytes).toBeGreaterThan(0);
    const [size] = await signedIn.database.prisma.$queryRaw<{ bytes: number }[]>`
      SELECT (pg_total_relation_size('tablelock.change_set')
              + pg_total_relation_size('tablelock.row_change')
              + pg_total_relation_size('tablelock.row_change_batch'))::float8 AS bytes`;
    expect(after?.historyBytes).toBe(size?.bytes);
  });

  it('is for admins only', async () => {
    const viewer = await signedIn.api.loginAs('carol');
    for (const caller of [viewer, signedIn.alice]) {
      const answer = await execute(caller, statusQuery);
      expect(answer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(answer.data).toBeNull();
    }
  });
});
