import { MAX_LEASE_SECONDS } from '@tablelock/lock';
import { createTestDatabase, resetLockRegistry, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated';
import { acquireTableLockAs, acquireTableLockMutation } from './support/lockOperations';
import { execute, startTestApi, type TestApi, type TestClient } from './support/testApi';

// "Why can't I edit?" is decided once, by the lock domain, and carried as data: on a refused
// acquisition (LOCK_CONFLICT's extensions) and on every table (TableInfo.editBlock).

let database: TestDatabase;
let api: TestApi;
let alice: TestClient;
let bob: TestClient;

const tableEditBlocksQuery = graphql(`
  query TableEditBlocks {
    tables {
      name
      editBlock {
        kind
        blockers {
          table
          editor
        }
      }
    }
  }
`);

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startTestApi(database);
  [alice, bob] = await Promise.all([api.loginAs('alice'), api.loginAs('bob')]);
  await resetLockRegistry(database.prisma);
  // products locks categories, currencies and suppliers; price_lists locks currencies too.
  // Held for the whole file: not past a lease however slow the machine.
  await acquireTableLockAs(alice, 'products', { lease: MAX_LEASE_SECONDS });
  await acquireTableLockAs(bob, 'price_lists', { lease: MAX_LEASE_SECONDS });
});
afterAll(async () => {
  await api.stop();
  await database.close();
});

describe('a refused acquisition names who is in the way, as data', () => {
  it.each([
    ['the table itself being edited', 'products', 'beingEdited', [['products', 'alice']]],
    [
      'a table locked by the editing of two others',
      'currencies',
      'lockedByEditing',
      [
        ['price_lists', 'bob'],
        ['products', 'alice'],
      ],
    ],
    [
      'referenced tables being edited',
      'price_list_items',
      'referenceBeingEdited',
      [
        ['price_lists', 'bob'],
        ['products', 'alice'],
      ],
    ],
  ])('%s', async (_, table, kind, blockers) => {
    const refused = await execute(bob, acquireTableLockMutation, { table });
    expect(refused.errors?.[0]?.extensions).toEqual({
      code: 'LOCK_CONFLICT',
      editBlock: kind,
      blockers: blockers.map(([blocker, editor]) => ({ table: blocker, editor })),
      requestId: expect.any(String),
    });
  });
});

describe('TableInfo.editBlock', () => {
  it('says why each table cannot be edited by the caller; the editor is not blocked by its own editing', async () => {
    const editBlocksFor = async (client: TestClient) => {
      const { data } = await execute(client, tableEditBlocksQuery);
      return new Map(data?.tables.map((table) => [table.name, table.editBlock]));
    };
    const [asAlice, asBob] = await Promise.all([editBlocksFor(alice), editBlocksFor(bob)]);
    expect(asAlice.get('products')).toBeNull();
    expect(asBob.get('products')).toEqual({
      kind: 'beingEdited',
      blockers: [{ table: 'products', editor: 'alice' }],
    });
    expect(asAlice.get('price_lists')).toMatchObject({ kind: 'beingEdited' });
    expect(asBob.get('currencies')).toEqual({
      kind: 'lockedByEditing',
      blockers: [
        { table: 'price_lists', editor: 'bob' },
        { table: 'products', editor: 'alice' },
      ],
    });
    expect(asBob.get('price_list_items')).toMatchObject({ kind: 'referenceBeingEdited' });
    expect(asBob.get('regions')).toBeNull();
  });
});
