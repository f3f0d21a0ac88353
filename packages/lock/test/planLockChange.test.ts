import { describe, expect, it } from 'vitest';
import { LockError, type LockErrorCode } from '../src/core/lockError';
import type { LockIntent } from '../src/core/lockIntent';
import { blockingTables } from '../src/core/lockRefusal';
import type { LockRow, LockRowChange } from '../src/core/lockRow';
import { planLockChange } from '../src/core/planLockChange';
import { acquireIntent } from './support/lockIntents';
import { editing, locked, row, rowsOf } from './support/lockRows';

/**
 * What the planner decided: the exact row changes of a grant, the tables in the way of a refusal
 * (editBlock.test.ts covers how a refusal names them), or the code of a LockError.
 */
type Decision =
  | { granted: true; changes: LockRowChange[] }
  | { granted: false; blockers: string[] }
  | { throws: LockErrorCode };

function decide(intent: LockIntent, rows: ReadonlyMap<string, LockRow>): Decision {
  try {
    const plan = planLockChange(intent, rows);
    return plan.granted ? plan : { granted: false, blockers: blockingTables(plan.refusal) };
  } catch (error) {
    if (error instanceof LockError) return { throws: error.code };
    throw error;
  }
}

type Case = [name: string, intent: LockIntent, rows: ReadonlyMap<string, LockRow>, Decision];

const acquire = acquireIntent;

const release = (
  tableName: string,
  fields: Partial<Omit<Extract<LockIntent, { kind: 'release' }>, 'kind' | 'tableName'>> = {},
): LockIntent => ({ kind: 'release', tableName, namedFkTables: [], editor: 'alice', ...fields });

const renew = (tableName: string, editor: string, token: string): LockIntent => ({
  kind: 'renew',
  tableName,
  editor,
  token,
  leaseSeconds: 300,
  active: false,
});

const takeOver = (tableName: string, editor: string, anyHolder: boolean): LockIntent => ({
  kind: 'takeOver',
  tableName,
  editor,
  leaseSeconds: 30,
  anyHolder,
});

const granted = (...changes: LockRowChange[]): Decision => ({ granted: true, changes });
const refused = (...blockers: string[]): Decision => ({ granted: false, blockers });
const throws = (code: LockErrorCode): Decision => ({ throws: code });

// products references categories and currencies, as in the demo schema.
const products = row('products', { references: ['categories', 'currencies'], version: 3 });
const categories = row('categories', { version: 5 });
const currencies = row('currencies', { version: 8 });

/** The changes of alice's acquisition of products: products editing, its targets held. */
const productsAcquired = (lockedByOfCurrencies = ['products']): LockRowChange[] => [
  {
    row: { ...products, status: 'editing', editor: 'alice', lockedBy: [] },
    grant: true,
    leaseSeconds: 60,
  },
  { row: { ...categories, status: 'locked', editor: null, lockedBy: ['products'] } },
  { row: { ...currencies, status: 'locked', editor: null, lockedBy: lockedByOfCurrencies } },
];

describe('planLockChange: acquire', () => {
  it.each<Case>([
    [
      'a normal table: it becomes editing (new acquisition, lease) and its FK targets locked by it',
      acquire('products'),
      rowsOf(products, categories, currencies),
      granted(...productsAcquired()),
    ],
    [
      'a table with no FK targets: only the table changes',
      acquire('categories', { leaseSeconds: null }),
      rowsOf(categories),
      granted({
        row: { ...categories, status: 'editing', editor: 'alice' },
        grant: true,
        leaseSeconds: null,
      }),
    ],
    [
      'an FK target already locked: the table joins its holders, kept sorted',
      acquire('products'),
      rowsOf(
        products,
        categories,
        locked('currencies', ['price_lists', 'suppliers'], { version: 8 }),
      ),
      granted(...productsAcquired(['price_lists', 'products', 'suppliers'])),
    ],
    [
      'an FK target already listing the table (never expected): it is not listed twice',
      acquire('products'),
      rowsOf(products, categories, locked('currencies', ['products'], { version: 8 })),
      granted(...productsAcquired(['products'])),
    ],
    [
      'FK tables the caller names come first, then the discovered ones, each once',
      acquire('products', { namedFkTables: ['warehouses', 'currencies'] }),
      rowsOf(products, categories, currencies, row('warehouses')),
      granted(
        productsAcquired()[0] as LockRowChange,
        { row: { ...row('warehouses'), status: 'locked', lockedBy: ['products'] } },
        productsAcquired()[2] as LockRowChange,
        productsAcquired()[1] as LockRowChange,
      ),
    ],
    [
      'a self-reference is ignored: the table does not lock itself',
      acquire('regions'),
      rowsOf(row('regions', { references: ['regions'] })),
      granted({
        row: { ...row('regions', { references: ['regions'] }), status: 'editing', editor: 'alice' },
        grant: true,
        leaseSeconds: 60,
      }),
    ],
    [
      'a table someone else is editing: refused, naming it',
      acquire('products'),
      rowsOf(
        editing('products', 'bob', { references: ['categories', 'currencies'] }),
        categories,
        currencies,
      ),
      refused('products'),
    ],
    [
      'a table the same editor is already editing: refused too (no re-entrant acquisition)',
      acquire('products'),
      rowsOf(
        editing('products', 'alice', { references: ['categories', 'currencies'] }),
        categories,
        currencies,
      ),
      refused('products'),
    ],
    [
      'a table whose editing lease is over: refused, naming it, so the caller can expire it',
      acquire('products'),
      rowsOf(editing('products', 'bob', { leaseExpired: true }), categories, currencies),
      refused('products'),
    ],
    [
      'a locked table: refused, naming the editing tables that hold it',
      acquire('currencies'),
      rowsOf(locked('currencies', ['price_lists', 'products'])),
      refused('price_lists', 'products'),
    ],
    [
      'an FK target someone else is editing: refused, naming it',
      acquire('products'),
      rowsOf(products, categories, editing('currencies', 'bob')),
      refused('currencies'),
    ],
    [
      'an FK target the same editor is editing: refused too',
      acquire('products'),
      rowsOf(products, categories, editing('currencies', 'alice')),
      refused('currencies'),
    ],
    [
      'several FK targets being edited: refused, naming each, in FK order',
      acquire('products', { namedFkTables: ['warehouses'] }),
      rowsOf(products, editing('categories', 'bob'), currencies, editing('warehouses', 'carol')),
      refused('warehouses', 'categories'),
    ],
    [
      'the table itself comes first: being edited, it alone is named',
      acquire('products'),
      rowsOf(
        editing('products', 'bob', { references: ['categories'] }),
        editing('categories', 'carol'),
      ),
      refused('products'),
    ],
    ['an unknown table', acquire('nope'), rowsOf(products), throws('TABLE_NOT_FOUND')],
    [
      'an FK target missing from the rows read',
      acquire('products'),
      rowsOf(products, categories),
      throws('TABLE_NOT_FOUND'),
    ],
    [
      'an unknown named FK table',
      acquire('categories', { namedFkTables: ['nope'] }),
      rowsOf(categories),
      throws('TABLE_NOT_FOUND'),
    ],
  ])('%s', (_, intent, rows, expected) => {
    expect(decide(intent, rows)).toEqual(expected);
  });
});

// alice edits products (token 41); categories is hers alone, currencies shared with price_lists.
const productsEdited = editing('products', 'alice', { references: ['categories', 'currencies'] });
const categoriesHeld = locked('categories', ['products']);
const currenciesShared = locked('currencies', ['price_lists', 'products']);
const whileEdited = rowsOf(productsEdited, categoriesHeld, currenciesShared);

/** The changes that end alice's editing of products, with its FK holds. */
const productsReleased: LockRowChange[] = [
  { row: { ...productsEdited, status: 'normal', editor: null } },
  { row: { ...categoriesHeld, status: 'normal', lockedBy: [] } },
  { row: { ...currenciesShared, status: 'locked', lockedBy: ['price_lists'] } },
];

describe('planLockChange: release', () => {
  it.each<Case>([
    [
      'by the holder (legacy, no token): the table is normal, its targets drop it as holder',
      release('products'),
      whileEdited,
      granted(...productsReleased),
    ],
    [
      'by the holder with the current token',
      release('products', { token: '41' }),
      whileEdited,
      granted(...productsReleased),
    ],
    [
      'by the holder naming FK tables it holds',
      release('products', { namedFkTables: ['currencies'] }),
      whileEdited,
      granted(...productsReleased),
    ],
    [
      'by the holder, also on tables it no longer references',
      release('products'),
      rowsOf(editing('products', 'alice'), locked('regions', ['products'])),
      granted(
        { row: { ...editing('products', 'alice'), status: 'normal', editor: null } },
        { row: { ...locked('regions', ['products']), status: 'normal', lockedBy: [] } },
      ),
    ],
    [
      'by the holder without a token after the lease ran out: still theirs to end',
      release('products'),
      rowsOf(editing('products', 'alice', { leaseExpired: true })),
      granted({
        row: {
          ...editing('products', 'alice', { leaseExpired: true }),
          status: 'normal',
          editor: null,
        },
      }),
    ],
    ['by someone else', release('products', { editor: 'bob' }), whileEdited, throws('FORBIDDEN')],
    [
      'by someone else holding the current token',
      release('products', { editor: 'bob', token: '41' }),
      whileEdited,
      throws('FORBIDDEN'),
    ],
    [
      'with a stale token (an earlier acquisition)',
      release('products', { token: '40' }),
      whileEdited,
      throws('LOCK_LOST'),
    ],
    [
      'with the current token after the lease ran out',
      release('products', { token: '41' }),
      rowsOf(editing('products', 'alice', { leaseExpired: true })),
      throws('LOCK_LOST'),
    ],
    [
      'naming an FK table it does not hold: refused, nobody to wait for',
      release('products', { namedFkTables: ['regions'] }),
      rowsOf(productsEdited, categoriesHeld, currenciesShared, row('regions')),
      refused(),
    ],
    [
      'naming an unknown FK table',
      release('products', { namedFkTables: ['nope'] }),
      whileEdited,
      throws('TABLE_NOT_FOUND'),
    ],
    ['of a normal table: refused', release('products'), rowsOf(products), refused()],
    ['of a locked table: refused', release('currencies'), rowsOf(currenciesShared), refused()],
  ])('%s', (_, intent, rows, expected) => {
    expect(decide(intent, rows)).toEqual(expected);
  });
});

describe('planLockChange: forceRelease and expire', () => {
  const expiredRows = rowsOf(
    editing('products', 'alice', { references: ['categories', 'currencies'], leaseExpired: true }),
    categoriesHeld,
    currenciesShared,
  );
  const expiredReleased = granted(
    {
      row: {
        ...editing('products', 'alice', {
          references: ['categories', 'currencies'],
          leaseExpired: true,
        }),
        status: 'normal',
        editor: null,
      },
    },
    ...productsReleased.slice(1),
  );

  it.each<Case>([
    [
      'forceRelease of an editing table: released with its FK holds, whoever holds it',
      { kind: 'forceRelease', tableName: 'products' },
      whileEdited,
      granted(...productsReleased),
    ],
    [
      'forceRelease of an editing table whose lease ran out',
      { kind: 'forceRelease', tableName: 'products' },
      expiredRows,
      expiredReleased,
    ],
    [
      'forceRelease of a normal table',
      { kind: 'forceRelease', tableName: 'products' },
      rowsOf(products),
      throws('INVALID_TRANSITION'),
    ],
    [
      'forceRelease of a locked table (release its holder instead)',
      { kind: 'forceRelease', tableName: 'currencies' },
      rowsOf(currenciesShared),
      throws('INVALID_TRANSITION'),
    ],
    [
      'expire once the lease is over: released with its FK holds',
      { kind: 'expire', tableName: 'products' },
      expiredRows,
      expiredReleased,
    ],
    [
      'expire for idleness once the holder is idle past the limit: released with its FK holds',
      { kind: 'expire', tableName: 'products', idle: true },
      rowsOf(
        editing('products', 'alice', {
          references: ['categories', 'currencies'],
          idleExpired: true,
        }),
        categoriesHeld,
        currenciesShared,
      ),
      granted(
        {
          row: {
            ...editing('products', 'alice', {
              references: ['categories', 'currencies'],
              idleExpired: true,
            }),
            status: 'normal',
            editor: null,
          },
        },
        ...productsReleased.slice(1),
      ),
    ],
    [
      'expire for idleness while the holder is within the limit: refused, even past the lease',
      { kind: 'expire', tableName: 'products', idle: true },
      expiredRows,
      refused(),
    ],
    [
      'expire for the lease while only the idle limit has passed: refused',
      { kind: 'expire', tableName: 'products' },
      rowsOf(editing('products', 'alice', { idleExpired: true })),
      refused(),
    ],
    [
      'expire while the lease runs: refused',
      { kind: 'expire', tableName: 'products' },
      whileEdited,
      refused(),
    ],
    [
      'expire of a normal table: refused',
      { kind: 'expire', tableName: 'products' },
      rowsOf(products),
      refused(),
    ],
    [
      'expire of a locked table: refused',
      { kind: 'expire', tableName: 'currencies' },
      rowsOf(currenciesShared),
      refused(),
    ],
  ])('%s', (_, intent, rows, expected) => {
    expect(decide(intent, rows)).toEqual(expected);
  });
});

describe('planLockChange: renew', () => {
  it.each<Case>([
    [
      'by the current acquisition: only the lease moves, token and FK holds stay',
      renew('products', 'alice', '41'),
      whileEdited,
      granted({ row: productsEdited, leaseSeconds: 300, active: false }),
    ],
    [
      'with activity since the last renewal: the idle time starts again',
      { ...renew('products', 'alice', '41'), active: true } as LockIntent,
      whileEdited,
      granted({ row: productsEdited, leaseSeconds: 300, active: true }),
    ],
    [
      'to no expiry',
      { ...renew('products', 'alice', '41'), leaseSeconds: null } as LockIntent,
      whileEdited,
      granted({ row: productsEdited, leaseSeconds: null, active: false }),
    ],
    ['with a stale token', renew('products', 'alice', '40'), whileEdited, throws('LOCK_LOST')],
    ['by another editor', renew('products', 'bob', '41'), whileEdited, throws('LOCK_LOST')],
    [
      'after the lease ran out',
      renew('products', 'alice', '41'),
      rowsOf(editing('products', 'alice', { leaseExpired: true })),
      throws('LOCK_LOST'),
    ],
    [
      'after its holder was idle past the limit, even with activity now',
      { ...renew('products', 'alice', '41'), active: true } as LockIntent,
      rowsOf(editing('products', 'alice', { idleExpired: true })),
      throws('LOCK_LOST'),
    ],
    [
      'of a released table',
      renew('products', 'alice', '41'),
      rowsOf(products),
      throws('LOCK_LOST'),
    ],
    [
      'of a locked table',
      renew('currencies', 'alice', '41'),
      rowsOf(currenciesShared),
      throws('LOCK_LOST'),
    ],
  ])('%s', (_, intent, rows, expected) => {
    expect(decide(intent, rows)).toEqual(expected);
  });
});

describe('planLockChange: takeOver', () => {
  it.each<Case>([
    [
      'by an admin: a new acquisition for them, FK holds untouched',
      takeOver('products', 'admin', true),
      whileEdited,
      granted({ row: { ...productsEdited, editor: 'admin' }, grant: true, leaseSeconds: 30 }),
    ],
    [
      'by the holder from another tab: a new acquisition for them',
      takeOver('products', 'alice', false),
      whileEdited,
      granted({ row: productsEdited, grant: true, leaseSeconds: 30 }),
    ],
    [
      'by an admin after the lease ran out',
      takeOver('products', 'admin', true),
      rowsOf(editing('products', 'alice', { leaseExpired: true })),
      granted({
        row: { ...editing('products', 'alice', { leaseExpired: true }), editor: 'admin' },
        grant: true,
        leaseSeconds: 30,
      }),
    ],
    [
      "of someone else's lock, not as admin",
      takeOver('products', 'bob', false),
      whileEdited,
      throws('FORBIDDEN'),
    ],
    [
      'of a normal table',
      takeOver('products', 'admin', true),
      rowsOf(products),
      throws('INVALID_TRANSITION'),
    ],
    [
      'of a locked table',
      takeOver('currencies', 'admin', true),
      rowsOf(currenciesShared),
      throws('INVALID_TRANSITION'),
    ],
  ])('%s', (_, intent, rows, expected) => {
    expect(decide(intent, rows)).toEqual(expected);
  });
});

describe('planLockChange: any intent', () => {
  it.each<LockIntent>([
    acquire('nope'),
    release('nope'),
    { kind: 'forceRelease', tableName: 'nope' },
    { kind: 'expire', tableName: 'nope' },
    renew('nope', 'alice', '41'),
    takeOver('nope', 'admin', true),
  ])('on an unknown table ($kind) is TABLE_NOT_FOUND', (intent) => {
    expect(decide(intent, whileEdited)).toEqual(throws('TABLE_NOT_FOUND'));
  });
});

describe('planLockChange: the line and tables taken together', () => {
  it.each<Case>([
    [
      'a free table with someone in line first for it: refused, naming the waiter',
      acquire('products'),
      rowsOf(
        row('products', {
          references: ['categories', 'currencies'],
          version: 3,
          waitersAhead: [{ table: 'products', editor: 'bob' }],
        }),
        categories,
        currencies,
      ),
      refused('products'),
    ],
    [
      'someone in line first for a table it would lock: refused, naming the table they wait for',
      acquire('products'),
      rowsOf(
        products,
        row('categories', { version: 5, waitersAhead: [{ table: 'categories', editor: 'bob' }] }),
        currencies,
      ),
      refused('categories'),
    ],
    [
      'a table being edited with someone in line too: refused for the editing, which ends first',
      acquire('categories'),
      rowsOf(
        editing('categories', 'bob', { waitersAhead: [{ table: 'categories', editor: 'carol' }] }),
      ),
      refused('categories'),
    ],
    [
      'an FK target taken in the same request (coEdited) is not also locked',
      acquire('products', { coEdited: ['categories'] }),
      rowsOf(products, editing('categories', 'alice', { version: 5 }), currencies),
      granted(productsAcquired()[0] as LockRowChange, productsAcquired()[2] as LockRowChange),
    ],
    [
      'ending a table that one still being edited references (taken together): it stays locked for it',
      release('categories'),
      rowsOf(
        editing('categories', 'alice', { version: 5 }),
        editing('products', 'alice', { references: ['categories', 'currencies'], version: 3 }),
      ),
      granted({
        row: {
          ...editing('categories', 'alice', { version: 5 }),
          status: 'locked',
          editor: null,
          lockedBy: ['products'],
        },
      }),
    ],
  ])('%s', (_name, intent, rows, expected) => {
    expect(decide(intent, rows)).toEqual(expected);
  });

  it('names each waiter in line first once, whichever rows they want', () => {
    const waiter = { table: 'categories', editor: 'bob' };
    const plan = planLockChange(
      acquire('products'),
      rowsOf(
        row('products', { references: ['categories'], waitersAhead: [waiter] }),
        row('categories', { waitersAhead: [waiter] }),
      ),
    );
    expect(plan).toEqual({ granted: false, refusal: { kind: 'queued', blockers: [waiter] } });
  });
});
