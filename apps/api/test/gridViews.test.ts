import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import type { ColumnLayoutInput, SavedViewInput } from './generated/graphql';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let carol: TestClient;

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  [alice, carol] = await Promise.all([api.loginAs('alice'), api.loginAs('carol')]);
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

const layoutQuery = graphql(`
  query GridLayout($table: String!) {
    gridLayout(table: $table) {
      column
      width
      hidden
      pinned
    }
  }
`);
const saveLayoutMutation = graphql(`
  mutation SaveGridLayout($table: String!, $columns: [ColumnLayoutInput!]!) {
    saveGridLayout(table: $table, columns: $columns) {
      column
    }
  }
`);
const saveViewMutation = graphql(`
  mutation SaveView($view: SavedViewInput!) {
    saveView(view: $view) {
      id
      name
      owner
      shared
      sort {
        column
        direction
      }
      filter
      columns {
        column
        width
        hidden
        pinned
      }
    }
  }
`);
const viewsQuery = graphql(`
  query SavedViews($table: String!) {
    savedViews(table: $table) {
      id
      name
      owner
    }
  }
`);
const viewQuery = graphql(`
  query SavedView($id: ID!) {
    savedView(id: $id) {
      id
      name
      sort {
        column
        direction
      }
      filter
    }
  }
`);
const deleteViewMutation = graphql(`
  mutation DeleteSavedView($id: ID!) {
    deleteSavedView(id: $id)
  }
`);

const ID_COLUMN: ColumnLayoutInput = { column: 'id', width: null, hidden: false, pinned: null };
const LAYOUT: ColumnLayoutInput[] = [
  { column: 'name', width: 333, hidden: false, pinned: 'left' },
  ID_COLUMN,
  { column: 'note', width: null, hidden: true, pinned: null },
];

describe('grid layouts', () => {
  it('keeps each user their own layout of a table', async () => {
    expect((await execute(alice, layoutQuery, { table: 'customers' })).data?.gridLayout).toEqual(
      [],
    );
    const saved = await execute(alice, saveLayoutMutation, { table: 'customers', columns: LAYOUT });
    expect(saved.errors).toBeUndefined();
    expect((await execute(alice, layoutQuery, { table: 'customers' })).data?.gridLayout).toEqual(
      LAYOUT,
    );
    expect((await execute(carol, layoutQuery, { table: 'customers' })).data?.gridLayout).toEqual(
      [],
    );
  });

  it('refuses columns the table does not have and widths out of bounds, changing nothing', async () => {
    await execute(carol, saveLayoutMutation, { table: 'regions', columns: [ID_COLUMN] });
    for (const columns of [
      [{ column: 'nope', width: null, hidden: false, pinned: null }],
      [{ column: 'id', width: 5, hidden: false, pinned: null }],
      [ID_COLUMN, ID_COLUMN],
    ]) {
      const refused = await execute(carol, saveLayoutMutation, { table: 'regions', columns });
      expect(refused.errors?.[0]?.extensions?.code, JSON.stringify(columns)).toBe('BAD_USER_INPUT');
    }
    expect((await execute(carol, layoutQuery, { table: 'regions' })).data?.gridLayout).toEqual([
      ID_COLUMN,
    ]);
    const unknownTable = await execute(carol, layoutQuery, { table: 'nope' });
    expect(unknownTable.errors?.[0]?.extensions?.code).toBe('TABLE_NOT_FOUND');
  });
});

describe('saved views', () => {
  const view = (name: string, shared: boolean) => ({
    table: 'customers',
    name,
    shared,
    sort: [{ column: 'name', direction: 'desc' as const }],
    // The grid's filter model: objects by column, which the generated JSON type does not say.
    filter: {
      is_vip: { filterType: 'text', type: 'isTrue' },
    } as unknown as SavedViewInput['filter'],
    columns: LAYOUT,
  });

  it('keeps a private view from others, even by id, and shows a shared one to all', async () => {
    const mine = await execute(alice, saveViewMutation, { view: view('VIPs by name', false) });
    expect(mine.errors).toBeUndefined();
    expect(mine.data?.saveView).toMatchObject({
      name: 'VIPs by name',
      owner: 'alice',
      shared: false,
      sort: [{ column: 'name', direction: 'desc' }],
      filter: { is_vip: { filterType: 'text', type: 'isTrue' } },
      columns: LAYOUT,
    });
    const id = mine.data?.saveView.id ?? '';
    const carolSees = await execute(carol, viewsQuery, { table: 'customers' });
    expect(carolSees.data?.savedViews.map((entry) => entry.id)).not.toContain(id);
    expect((await execute(carol, viewQuery, { id })).errors?.[0]?.extensions?.code).toBe(
      'NOT_FOUND',
    );

    const shared = await execute(alice, saveViewMutation, { view: view('VIPs by name', true) });
    expect(shared.data?.saveView.id).toBe(id);
    expect((await execute(carol, viewQuery, { id })).data?.savedView).toMatchObject({
      name: 'VIPs by name',
      sort: [{ column: 'name', direction: 'desc' }],
    });
    expect((await execute(carol, deleteViewMutation, { id })).errors?.[0]?.extensions?.code).toBe(
      'NOT_FOUND',
    );
    expect((await execute(alice, deleteViewMutation, { id })).data?.deleteSavedView).toBe(true);
    expect((await execute(alice, viewQuery, { id })).errors?.[0]?.extensions?.code).toBe(
      'NOT_FOUND',
    );
  });

  it('refuses a view that names a column the table lacks, or has no name', async () => {
    for (const bad of [
      { ...view('x', false), sort: [{ column: 'nope', direction: 'asc' as const }] },
      {
        ...view('x', false),
        filter: { nope: { type: 'equals' } } as unknown as SavedViewInput['filter'],
      },
      { ...view('  ', false) },
    ]) {
      const refused = await execute(alice, saveViewMutation, { view: bad });
      expect(refused.errors?.[0]?.extensions?.code, JSON.stringify(bad)).toBe('BAD_USER_INPUT');
    }
    const views = await execute(alice, viewsQuery, { table: 'customers' });
    expect(views.data?.savedViews.map((entry) => entry.name)).not.toContain('x');
  });
});
