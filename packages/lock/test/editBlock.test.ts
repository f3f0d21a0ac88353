import { describe, expect, it } from 'vitest';
import { editBlockOf } from '../src/core/editBlock';
import { describeLockRefusal, type LockRefusal } from '../src/core/lockRefusal';
import type { LockRow } from '../src/core/lockRow';

type State = Pick<LockRow, 'tableName' | 'status' | 'editor' | 'lockedBy'>;
const table = (tableName: string, rest: Partial<State> = {}): State => ({
  tableName,
  status: 'normal',
  editor: null,
  lockedBy: [],
  ...rest,
});
const editors: Record<string, string> = { products: 'alice', price_lists: 'carol' };
const editorOf = (name: string) => editors[name] ?? null;

describe('editBlockOf: why a table cannot be edited', () => {
  it.each([
    ['a normal table with free references', table('products'), [table('categories')], null],
    [
      'a table being edited: by its editor',
      table('products', { status: 'editing', editor: 'alice' }),
      [],
      { kind: 'beingEdited', blockers: [{ table: 'products', editor: 'alice' }] },
    ],
    [
      'a table locked by the editing of others: each holder with its editor',
      table('currencies', { status: 'locked', lockedBy: ['price_lists', 'products'] }),
      [],
      {
        kind: 'lockedByEditing',
        blockers: [
          { table: 'price_lists', editor: 'carol' },
          { table: 'products', editor: 'alice' },
        ],
      },
    ],
    [
      'a table whose referenced tables are being edited: every one of them',
      table('customers'),
      [
        table('regions', { status: 'editing', editor: 'bob' }),
        table('currencies', { status: 'locked', lockedBy: ['products'] }),
        table('warehouses', { status: 'editing', editor: 'dave' }),
      ],
      {
        kind: 'referenceBeingEdited',
        blockers: [
          { table: 'regions', editor: 'bob' },
          { table: 'warehouses', editor: 'dave' },
        ],
      },
    ],
    [
      'a referenced table that is only locked does not block: shared locks add up',
      table('price_list_items'),
      [table('currencies', { status: 'locked', lockedBy: ['products'] })],
      null,
    ],
  ] as const)('%s', (_, main, referenced, expected) => {
    expect(editBlockOf(main, referenced, editorOf)).toEqual(expected);
  });
});

const refusals: [LockRefusal, string][] = [
  [
    { kind: 'beingEdited', blockers: [{ table: 'products', editor: 'alice' }] },
    'products is being edited by alice',
  ],
  [
    {
      kind: 'lockedByEditing',
      blockers: [
        { table: 'price_lists', editor: null },
        { table: 'products', editor: 'alice' },
      ],
    },
    'products is locked because price_lists, products are being edited',
  ],
  [
    { kind: 'referenceBeingEdited', blockers: [{ table: 'regions', editor: null }] },
    'regions (referenced) is being edited by someone',
  ],
  [{ kind: 'notHeld', tables: ['regions'] }, 'regions is not locked by products'],
  [{ kind: 'leaseRunning' }, "products's lease is not over"],
];

describe('describeLockRefusal: the refusal in English', () => {
  it.each(refusals)('%j', (refusal, words) => {
    expect(describeLockRefusal('products', refusal)).toBe(words);
  });
});
