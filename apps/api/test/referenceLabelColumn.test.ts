import { describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

const signedIn = useSignedInApi();

const setLabelColumn = graphql(`
  mutation SetLabelColumn($table: String!, $labelColumn: String) {
    setTablePolicy(table: $table, policy: { labelColumn: $labelColumn }) {
      table
      labelColumn
    }
  }
`);

const regionOptions = graphql(`
  query RegionOptions($search: String) {
    referenceOptions(table: "suppliers", column: "region_id", search: $search, first: 3) {
      labelColumn
      options {
        key
        label
      }
    }
  }
`);

const supplierRegionLabels = graphql(`
  query SupplierRegionLabels {
    rows(table: "suppliers", filter: [{ column: "id", operator: equals, value: "2" }], limit: 1) {
      referenceLabels {
        column
        labels {
          key
          label
        }
      }
    }
  }
`);

const regionLabel = async () => {
  const answer = await execute(signedIn.alice, supplierRegionLabels);
  expect(answer.errors).toBeUndefined();
  const regions = answer.data?.rows.referenceLabels.find((entry) => entry.column === 'region_id');
  return regions?.labels[0]?.label;
};

const storedLabelColumn = async () =>
  (
    await signedIn.database.prisma.tablePolicy.findUnique({
      where: { tableName: 'regions' },
      select: { labelColumn: true },
    })
  )?.labelColumn ?? null;

describe("a table's label column, picked by an admin", () => {
  it('changes the labels beside its keys and what value help searches', async () => {
    // Supplier 2 is in region 12, JP-KYUSHU (code, the first text column), named Kyushu.
    expect(await regionLabel()).toBe('JP-KYUSHU');
    const set = await execute(signedIn.admin, setLabelColumn, {
      table: 'regions',
      labelColumn: 'name',
    });
    expect(set.errors).toBeUndefined();
    expect(set.data?.setTablePolicy).toEqual({ table: 'regions', labelColumn: 'name' });
    expect(await regionLabel()).toBe('Kyushu');

    const search = await execute(signedIn.alice, regionOptions, { search: 'ka' });
    expect(search.errors).toBeUndefined();
    expect(search.data?.referenceOptions).toEqual({
      labelColumn: 'name',
      options: [
        { key: '11', label: 'Kansai' },
        { key: '10', label: 'Kanto' },
      ],
    });
    const audit = await signedIn.database.prisma.securityEvent.findFirst({
      where: { action: 'table_policy_changed', subject: 'regions' },
      orderBy: { id: 'desc' },
    });
    expect(audit).toMatchObject({ actor: 'admin', details: { changes: { labelColumn: 'name' } } });

    const reset = await execute(signedIn.admin, setLabelColumn, {
      table: 'regions',
      labelColumn: null,
    });
    expect(reset.data?.setTablePolicy.labelColumn).toBeNull();
    expect(await regionLabel()).toBe('JP-KYUSHU');
  });

  it.each([
    ['a column the table does not have', 'nickname'],
    ['a column that is not text', 'parent_id'],
  ])('refuses %s as BAD_USER_INPUT and changes nothing', async (_case, labelColumn) => {
    await execute(signedIn.admin, setLabelColumn, { table: 'regions', labelColumn: 'name' });
    const events = await signedIn.database.prisma.securityEvent.count();
    const answer = await execute(signedIn.admin, setLabelColumn, { table: 'regions', labelColumn });
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0]?.message).toContain(labelColumn);
    expect(await storedLabelColumn()).toBe('name');
    expect(await signedIn.database.prisma.securityEvent.count()).toBe(events);
  });

  it('may be set by admins only', async () => {
    const viewer = await signedIn.api.loginAs('carol');
    for (const caller of [viewer, signedIn.alice]) {
      const answer = await execute(caller, setLabelColumn, {
        table: 'regions',
        labelColumn: 'code',
      });
      expect(answer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    expect(await storedLabelColumn()).not.toBe('code');
  });
});
