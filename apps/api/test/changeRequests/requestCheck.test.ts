import { beforeAll, describe, expect, it } from 'vitest';
import { setTablePolicyMutation } from '../support/governanceOperations';
import { acquireTableLockAs, refusal } from '../support/lockOperations';
import { useSignedInApi } from '../support/signedInApi';
import { execute } from '../support/testApi';
import {
  changeRequestCheckQuery,
  changeRequestChecksQuery,
  sendBackChangeRequestMutation,
  submitChangeRequestMutation,
} from './support/changeRequestOperations';

const signedIn = useSignedInApi();

beforeAll(async () => {
  const policy = await execute(signedIn.admin, setTablePolicyMutation, {
    table: 'suppliers',
    policy: { changesNeedApproval: true },
  });
  expect(policy.errors).toBeUndefined();
});

async function versionOf(id: number) {
  const [row] = await signedIn.database.prisma.$queryRaw<{ version: string }[]>`
    SELECT xmin::text AS version FROM master.suppliers WHERE id = ${id}`;
  if (!row) throw new Error(`no supplier ${id}`);
  return row.version;
}

async function checkAs(id: string) {
  const response = await execute(signedIn.bob, changeRequestCheckQuery, { id });
  if (!response.data?.changeRequest) throw new Error(JSON.stringify(response));
  return response.data.changeRequest;
}

describe('a change request checked against today before approval', () => {
  it('shows rows changed, deleted or refused by the table since submission, and writes nothing', async () => {
    const { prisma } = signedIn.database;
    await prisma.$executeRaw`INSERT INTO master.regions (id, code, name) VALUES (900, 'R900', 'Test region')`;
    await prisma.$executeRaw`
      INSERT INTO master.suppliers (id, name, region_id, currency_code, contract_start)
      VALUES (900, 'Test supplier', 1, 'JPY', '2026-01-01')`;
    const lock = await acquireTableLockAs(signedIn.alice, 'suppliers');
    const submitted = await execute(signedIn.alice, submitChangeRequestMutation, {
      table: 'suppliers',
      token: lock.token,
      changes: {
        updates: [
          { key: { id: '1' }, version: await versionOf(1), values: { name: 'Sakura Trading' } },
          { key: { id: '2' }, version: await versionOf(2), values: { region_id: '900' } },
          { key: { id: '900' }, version: await versionOf(900), values: { email: 'a@b.example' } },
          { key: { id: '3' }, version: await versionOf(3), values: { rating: '4.5' } },
        ],
      },
      comment: 'Four rows',
    });
    const id = submitted.data?.submitChangeRequest.request?.id;
    if (!id) throw new Error(JSON.stringify(submitted));
    expect((await checkAs(id)).check).toEqual({ applies: true, rowsChecked: 4, problems: [] });

    // After submission: a row changed, the region a row now points at deleted, a row deleted.
    await prisma.$executeRaw`UPDATE master.suppliers SET name = 'Changed outside' WHERE id = 1`;
    await prisma.$executeRaw`DELETE FROM master.regions WHERE id = 900`;
    await prisma.$executeRaw`DELETE FROM master.suppliers WHERE id = 900`;
    const ratingBefore = await prisma.$queryRaw<{ rating: string | null }[]>`
      SELECT rating::text FROM master.suppliers WHERE id = 3`;

    const shown = await checkAs(id);
    expect(shown.state).toBe('pending');
    expect(shown.check).toMatchObject({ applies: false, rowsChecked: 4 });
    expect(shown.check?.problems).toMatchObject([
      { index: 0, code: 'ROW_CHANGED', currentValues: { name: 'Changed outside' } },
      {
        index: 1,
        code: 'FOREIGN_KEY',
        column: 'region_id',
        details: { kind: 'MISSING_REFERENCE', table: 'regions' },
        currentValues: null,
      },
      { index: 2, code: 'ROW_DELETED', currentValues: null },
    ]);
    expect(shown.check?.problems).toHaveLength(3);
    // The trial wrote nothing, and the request still holds the lock.
    expect(await prisma.$queryRaw`SELECT rating::text FROM master.suppliers WHERE id = 3`).toEqual(
      ratingBefore,
    );
    const held = await prisma.tableLock.findUniqueOrThrow({ where: { tableName: 'suppliers' } });
    expect(held).toMatchObject({ status: 'editing', editor: 'alice', leaseExpiresAt: null });

    // A trial save per request of a list is refused: one at a time.
    const listed = await execute(signedIn.bob, changeRequestChecksQuery);
    expect(refusal(listed).code).toBe('BAD_USER_INPUT');

    const back = await execute(signedIn.bob, sendBackChangeRequestMutation, {
      id,
      comment: 'See the rows',
    });
    expect(back.errors).toBeUndefined();
    expect((await checkAs(id)).check).toBeNull();
  });
});
