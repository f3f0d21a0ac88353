import { describe, expect, it } from 'vitest';
import { graphql } from './generated';
import type { RowChanges } from './generated/graphql';
import { setTablePolicyMutation } from './support/governanceOperations';
import { acquireTableLockAs, refusal } from './support/lockOperations';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

const checkRowsQuery = graphql(`
  query CheckRows($table: String!, $token: String!, $changes: RowChanges!) {
    checkRows(table: $table, token: $token, changes: $changes) {
      valid
      rowsChecked
      rowErrors {
        change
        index
        column
        code
        details {
          kind
          table
        }
      }
    }
  }
`);

const signedIn = useSignedInApi();

/** What a trial must leave as it found it: the rows' versions and values, history, audit. */
async function traces(ids: number[]) {
  const { prisma } = signedIn.database;
  const rows = await prisma.$queryRaw<unknown[]>`
    SELECT id, xmin::text AS version, sku, name, category_id, unit_price::text
    FROM master.products WHERE id = ANY(${ids}) ORDER BY id`;
  const [history] = await prisma.$queryRaw<{ changeSets: number; rowChanges: number }[]>`
    SELECT (SELECT count(*)::int FROM tablelock.change_set WHERE table_name = 'products') AS "changeSets",
           (SELECT count(*)::int FROM tablelock.row_change AS c
              JOIN tablelock.change_set AS s ON s.id = c.change_set_id
             WHERE s.table_name = 'products') AS "rowChanges"`;
  const saves = await prisma.lockEvent.count({ where: { tableName: 'products', action: 'save' } });
  const lock = await prisma.tableLock.findUniqueOrThrow({ where: { tableName: 'products' } });
  return { rows, history, saves, lock: { version: lock.version, editor: lock.editor } };
}

async function versionOf(id: number) {
  const [row] = await signedIn.database.prisma.$queryRaw<{ version: string }[]>`
    SELECT xmin::text AS version FROM master.products WHERE id = ${id}`;
  if (!row) throw new Error(`no product ${id}`);
  return row.version;
}

describe('checkRows: pending grid changes tried and rolled back', () => {
  it('reports every refused row of one check at once (FK, UNIQUE, CHECK) and writes nothing', async () => {
    const lock = await acquireTableLockAs(signedIn.alice, 'products');
    const before = await traces([801, 802, 803, 804, 900_001]);
    const changes: RowChanges = {
      updates: [
        { key: { id: '801' }, version: await versionOf(801), values: { category_id: '99999' } },
        { key: { id: '802' }, version: await versionOf(802), values: { sku: 'SKU-000803' } },
        { key: { id: '803' }, version: await versionOf(803), values: { unit_price: '-1' } },
        { key: { id: '804' }, version: await versionOf(804), values: { name: 'Fine change' } },
      ],
      inserts: [
        {
          values: {
            id: '900001',
            sku: 'SKU-CHECK-1',
            name: 'Fine insert',
            category_id: '11',
            supplier_id: '1',
            unit_price: '1.00',
            currency_code: 'JPY',
            launched_on: '2026-01-01',
          },
        },
      ],
    };

    const checked = await execute(signedIn.alice, checkRowsQuery, {
      table: 'products',
      token: lock.token,
      changes,
    });

    expect(checked.errors).toBeUndefined();
    expect(checked.data?.checkRows).toMatchObject({ valid: false, rowsChecked: 5 });
    expect(checked.data?.checkRows.rowErrors).toEqual([
      {
        change: 'update',
        index: 0,
        column: 'category_id',
        code: 'FOREIGN_KEY',
        details: { kind: 'MISSING_REFERENCE', table: 'categories' },
      },
      {
        change: 'update',
        index: 1,
        column: 'sku',
        code: 'UNIQUE',
        details: { kind: 'DUPLICATE', table: 'products' },
      },
      {
        change: 'update',
        index: 2,
        column: 'unit_price',
        code: 'CHECK',
        details: { kind: 'CHECK', table: null },
      },
    ]);
    expect(await traces([801, 802, 803, 804, 900_001])).toEqual(before);
  });

  it('says valid for changes that would save, and still writes nothing', async () => {
    const lock = await acquireTableLockAs(signedIn.alice, 'products');
    const before = await traces([805]);
    const checked = await execute(signedIn.alice, checkRowsQuery, {
      table: 'products',
      token: lock.token,
      changes: {
        updates: [{ key: { id: '805' }, version: await versionOf(805), values: { name: 'New' } }],
      },
    });
    expect(checked.data?.checkRows).toEqual({ valid: true, rowsChecked: 1, rowErrors: [] });
    expect(await traces([805])).toEqual(before);
  });

  it('refuses a token that does not hold the table, as saveRows does, and writes nothing', async () => {
    const lock = await acquireTableLockAs(signedIn.alice, 'products');
    const changes = {
      updates: [{ key: { id: '806' }, version: await versionOf(806), values: { name: 'X' } }],
    };
    const before = await traces([806]);
    const stale = await execute(signedIn.alice, checkRowsQuery, {
      table: 'products',
      token: String(BigInt(lock.token) + 1000n),
      changes,
    });
    expect(refusal(stale).code).toBe('LOCK_LOST');
    // Another editor presenting the holder's token holds nothing either.
    const stolen = await execute(signedIn.bob, checkRowsQuery, {
      table: 'products',
      token: lock.token,
      changes,
    });
    expect(refusal(stolen).code).toBe('LOCK_LOST');
    const malformed = await execute(signedIn.alice, checkRowsQuery, {
      table: 'products',
      token: 'not-a-token',
      changes,
    });
    expect(refusal(malformed).code).toBe('BAD_USER_INPUT');
    expect(await traces([806])).toEqual(before);
  });

  it('is bounded like saveRows: more than 1000 changes are BAD_USER_INPUT', async () => {
    const lock = await acquireTableLockAs(signedIn.alice, 'products');
    const deletes = Array.from({ length: 1001 }, (_, i) => ({
      key: { id: String(10_000 + i) },
      version: '1',
    }));
    const checked = await execute(signedIn.alice, checkRowsQuery, {
      table: 'products',
      token: lock.token,
      changes: { deletes },
    });
    expect(refusal(checked)).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('refuses a table whose changes need approval: the change request checks those', async () => {
    const policy = await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'warehouses',
      policy: { changesNeedApproval: true },
    });
    expect(policy.errors).toBeUndefined();
    const lock = await acquireTableLockAs(signedIn.alice, 'warehouses');
    const checked = await execute(signedIn.alice, checkRowsQuery, {
      table: 'warehouses',
      token: lock.token,
      changes: { updates: [{ key: { id: '1' }, version: '1', values: { name: 'X' } }] },
    });
    expect(refusal(checked).code).toBe('APPROVAL_REQUIRED');
  });
});
