import { describe, expect, it } from 'vitest';
import { editBlockFor, editBlockOf, type SharedTableView } from '../src/core/editBlock';
import { describeLockRefusal, type LockRefusal } from '../src/core/lockRefusal';
import type { LockRow } from '../src/core/lockRow';
import { DEFAULT_TABLE_RULES } from '../src/core/tableRules';

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

const shared = (rest: Partial<SharedTableView> = {}): SharedTableView => ({
  name: 'products',
  status: 'normal',
  editor: null,
  rules: DEFAULT_TABLE_RULES,
  editBlock: null,
  inLine: [],
  ...rest,
});
const caller = (name: string, role: 'viewer' | 'editor' | 'admin' = 'editor') => ({
  name,
  rights: { role, groups: [] },
});
const waiter = (id: string, editor: string) => ({
  id,
  tables: ['products'],
  references: [],
  rows: null,
  editor,
  since: new Date(0),
  reservedUntil: null,
});
const beingEdited = {
  kind: 'beingEdited' as const,
  blockers: [{ table: 'products', editor: 'alice' }],
};
const frozen = {
  kind: 'frozen' as const,
  blockers: [{ table: 'products', editor: null }],
  reason: 'close',
};
const onlyFinance = { ...DEFAULT_TABLE_RULES, editGroups: ['finance'] };

describe("editBlockFor: the table's edit block, for one caller", () => {
  it.each([
    [
      'the editor is not blocked by its own editing, nor by a freeze since',
      caller('alice'),
      shared({ status: 'editing', editor: 'alice', editBlock: frozen }),
      null,
    ],
    [
      'anyone else is',
      caller('bob'),
      shared({ status: 'editing', editor: 'alice', editBlock: beingEdited }),
      beingEdited,
    ],
    [
      'a freeze comes before the caller being left out by the policy',
      caller('bob'),
      shared({ rules: onlyFinance, editBlock: frozen }),
      frozen,
    ],
    [
      'a caller the policy leaves out, before anyone in the way',
      caller('bob'),
      shared({ status: 'editing', editor: 'alice', rules: onlyFinance, editBlock: beingEdited }),
      { kind: 'notAllowed', blockers: [] },
    ],
    ['never a viewer', caller('vera', 'viewer'), shared({ rules: onlyFinance }), null],
    [
      'on a free table, those in line before the caller',
      caller('bob'),
      shared({ inLine: [waiter('1', 'carol'), waiter('2', 'bob'), waiter('3', 'dave')] }),
      { kind: 'queued', blockers: [{ table: 'products', editor: 'carol' }] },
    ],
    [
      'nobody signed in: everyone in line',
      null,
      shared({ inLine: [waiter('1', 'carol'), waiter('2', 'bob')] }),
      {
        kind: 'queued',
        blockers: [
          { table: 'products', editor: 'carol' },
          { table: 'products', editor: 'bob' },
        ],
      },
    ],
    ['a free table with nobody in line', caller('bob'), shared(), null],
  ])('%s', (_, who, view, expected) => {
    expect(editBlockFor(who, view)).toEqual(expected);
  });
});
