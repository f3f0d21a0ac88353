import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let carol: TestClient;
let admin: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  [alice, carol, admin] = await Promise.all([
    api.loginAs('alice'),
    api.loginAs('carol'),
    api.loginAs('admin'),
  ]);
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const ROWS = `query($table: String!, $filter: [RowFilter!]) {
  rows(table: $table, filter: $filter, limit: 5) {
    total editable columns { name kind } rows { key version values }
  }
}`;
const SAVE = `mutation($table: String!, $token: String!, $changes: RowChanges!) {
  saveRows(table: $table, token: $token, changes: $changes) {
    saved inserted updated deleted rowErrors { change index column code message }
  }
}`;

type RowsData = {
  rows: {
    total: number;
    editable: boolean;
    rows: { key: Record<string, string>; version: string; values: Record<string, string | null> }[];
  };
};

describe('rows and saveRows over GraphQL', () => {
  it('lets a viewer read rows but not save them', async () => {
    const read = await carol.graphql<RowsData>(ROWS, { table: 'warehouses' });
    expect(read.data?.rows).toMatchObject({ total: 4, editable: true });
    const save = await carol.graphql(SAVE, {
      table: 'warehouses',
      token: '1',
      changes: { deletes: [{ key: { id: '4' }, version: '1' }] },
    });
    expect(save.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(
      (await api.anonymous.graphql(ROWS, { table: 'warehouses' })).errors?.[0]?.extensions?.code,
    ).toBe('UNAUTHENTICATED');
  });

  it('saves for the holder, and is LOCK_LOST once an admin force-released the lock', async () => {
    const acquired = await alice.graphql<{ acquireTableLock: { token: string } }>(
      'mutation { acquireTableLock(table: "warehouses") { token } }',
    );
    const token = acquired.data?.acquireTableLock.token;
    expect(token).toMatch(/^\d+$/);
    const read = await alice.graphql<RowsData>(ROWS, {
      table: 'warehouses',
      filter: [{ column: 'id', operator: 'equals', value: '2' }],
    });
    const osaka = read.data?.rows.rows[0];
    const saved = await alice.graphql<{ saveRows: { saved: boolean; updated: number } }>(SAVE, {
      table: 'warehouses',
      token,
      changes: {
        updates: [{ key: osaka?.key, version: osaka?.version, values: { name: 'Osaka port' } }],
      },
    });
    expect(saved.data?.saveRows).toMatchObject({ saved: true, updated: 1 });

    const released = await admin.graphql(
      'mutation { forceRelease(table: "warehouses", reason: "stale lock") { status } }',
    );
    expect(released.errors).toBeUndefined();
    const lost = await alice.graphql(SAVE, {
      table: 'warehouses',
      token,
      changes: {
        inserts: [
          {
            values: {
              id: '9',
              code: 'WH-X',
              name: 'X',
              region_id: '10',
              capacity_m3: '1',
              opened_on: '2026-01-01',
            },
          },
        ],
      },
    });
    expect(lost.errors?.[0]?.extensions?.code).toBe('LOCK_LOST');
    expect(lost.errors?.[0]?.message).toContain('admin force-released your lock on warehouses');
    expect(lost.errors?.[0]?.message).toContain('stale lock');
    const after = await alice.graphql<RowsData>(ROWS, { table: 'warehouses' });
    expect(after.data?.rows.total).toBe(4);
  });
});
