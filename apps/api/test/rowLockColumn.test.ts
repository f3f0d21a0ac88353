import { describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

const signedIn = useSignedInApi();

const setRowLockColumn = graphql(`
  mutation SetRowLockColumn($table: String!, $rowLockColumn: String) {
    setTablePolicy(table: $table, policy: { rowLockColumn: $rowLockColumn }) {
      table
      rowLockColumn
    }
  }
`);

const rowLockColumns = graphql(`
  query RowLockColumns {
    tablePolicies {
      table
      rowLockColumn
    }
  }
`);

const storedRowLockColumn = async (table: string) =>
  (
    await signedIn.database.prisma.tablePolicy.findUnique({
      where: { tableName: table },
      select: { rowLockColumn: true },
    })
  )?.rowLockColumn ?? null;

describe("a table's row-lock column, declared by an admin", () => {
  it.each([
    ['products', 'category_id', 'an integer'],
    ['products', 'currency_code', 'a character(3)'],
    ['products', 'sku', 'a text'],
    ['products', 'launched_on', 'a date'],
    ['customers', 'region_id', 'an integer'],
  ])(
    'is stored for %s.%s (%s column), shown, recorded, and reset to the key with null',
    async (table, column) => {
      const set = await execute(signedIn.admin, setRowLockColumn, { table, rowLockColumn: column });
      expect(set.errors).toBeUndefined();
      expect(set.data?.setTablePolicy).toEqual({ table, rowLockColumn: column });
      expect(await storedRowLockColumn(table)).toBe(column);

      const read = await execute(signedIn.admin, rowLockColumns);
      expect(read.data?.tablePolicies.find((policy) => policy.table === table)).toEqual({
        table,
        rowLockColumn: column,
      });
      const audit = await signedIn.database.prisma.securityEvent.findFirst({
        where: { action: 'table_policy_changed', subject: table },
        orderBy: { id: 'desc' },
      });
      expect(audit).toMatchObject({
        actor: 'admin',
        details: { changes: { rowLockColumn: column } },
      });

      const reset = await execute(signedIn.admin, setRowLockColumn, { table, rowLockColumn: null });
      expect(reset.data?.setTablePolicy.rowLockColumn).toBeNull();
      expect(await storedRowLockColumn(table)).toBeNull();
    },
  );

  it.each([
    ['a column the table does not have', 'category', 'products has no column named category'],
    ['a numeric column (1.0 and 1.00 are one value)', 'unit_price', 'numeric(12,2)'],
    ['a numeric column of weights', 'weight_kg', 'cannot be compared as text'],
  ])('refuses %s as BAD_USER_INPUT and changes nothing', async (_case, column, says) => {
    await execute(signedIn.admin, setRowLockColumn, {
      table: 'products',
      rowLockColumn: 'category_id',
    });
    const events = await signedIn.database.prisma.securityEvent.count();
    const answer = await execute(signedIn.admin, setRowLockColumn, {
      table: 'products',
      rowLockColumn: column,
    });
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0]?.message).toContain(says);
    expect(await storedRowLockColumn('products')).toBe('category_id');
    expect(await signedIn.database.prisma.securityEvent.count()).toBe(events);
  });

  it('is refused for a table that is not a master table', async () => {
    const answer = await execute(signedIn.admin, setRowLockColumn, {
      table: 'no_such_table',
      rowLockColumn: 'id',
    });
    expect(answer.errors?.[0]?.extensions?.code).toBe('TABLE_NOT_FOUND');
  });

  it('may be declared by admins only', async () => {
    const viewer = await signedIn.api.loginAs('carol');
    for (const caller of [viewer, signedIn.alice]) {
      const answer = await execute(caller, setRowLockColumn, {
        table: 'customers',
        rowLockColumn: 'name',
      });
      expect(answer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    expect(await storedRowLockColumn('customers')).not.toBe('name');
  });
});

const tableRowLockColumn = graphql(`
  query TableRowLockColumn($name: String!) {
    table(name: $name) {
      rowLockColumn
    }
  }
`);

describe("a table's effective row-lock column (TableInfo.rowLockColumn)", () => {
  it('is the declared column, else the single-column primary key', async () => {
    const read = async (name: string) =>
      (await execute(signedIn.alice, tableRowLockColumn, { name })).data?.table?.rowLockColumn;
    await execute(signedIn.admin, setRowLockColumn, { table: 'products', rowLockColumn: null });
    expect(await read('products')).toBe('id');
    await execute(signedIn.admin, setRowLockColumn, {
      table: 'products',
      rowLockColumn: 'category_id',
    });
    expect(await read('products')).toBe('category_id');
  });
});
