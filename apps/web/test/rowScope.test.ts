import { describe, expect, it } from 'vitest';
import type { GridRow } from '../src/table/changes/gridRow';
import { gridScope } from '../src/table/scope/gridScope';
import { onlyScopesInTheWay } from '../src/table/scope/onlyScopesInTheWay';
import { rowScopeOf } from '../src/table/scope/rowScopeOf';
import { holdsTable } from '../src/tables/holdsTable';
import { rowScopeHolders } from '../src/tables/rowScopeHolders';
import type { TableInfo } from '../src/tables/useTables';

const scope = (editor: string, rows: string[]) => ({
  editor,
  rows,
  acquiredAt: '2026-05-01T10:00:00Z',
  leaseExpiresAt: null,
});

const products = (change: Partial<TableInfo> = {}): TableInfo => ({
  name: 'products',
  status: 'editing',
  // The oldest scope's editor, as legacy clients see it.
  editor: 'alice',
  lockedBy: [],
  references: ['categories'],
  referencedBy: [],
  version: 3,
  updatedAt: '2026-05-01T10:00:00Z',
  acquiredAt: null,
  leaseExpiresAt: null,
  idleLimitSeconds: 900,
  editBlock: null,
  waiters: [],
  frozen: null,
  policy: { readOnly: false, takesPartInLocking: true, changesNeedApproval: false },
  canTakeOver: false,
  rowLockColumn: 'category_id',
  rowLocks: [scope('alice', ['11', '12']), scope('bob', ['21'])],
  ...change,
});

const row = (id: string, category: string | null): GridRow => ({
  id,
  key: { id },
  version: 'v1',
  values: { id, category_id: category },
});

describe('row scopes in the grid', () => {
  it('bob holds the table through his scope, though it shows alice as its editor', () => {
    expect(holdsTable(products(), 'bob')).toBe(true);
    expect(holdsTable(products(), 'carol')).toBe(false);
    // A whole-table lock, as before.
    const whole = products({ rowLocks: [], editor: 'carol' });
    expect(holdsTable(whole, 'carol')).toBe(true);
    expect(holdsTable(whole, 'alice')).toBe(false);
  });

  it('the user edits the rows of their values; others show their holder, and nobody’s none', () => {
    const bobs = rowScopeOf(products(), 'bob');
    expect(bobs?.mine).toEqual(['21']);
    const grid = gridScope(
      'category_id',
      () => bobs,
      (id) => id.startsWith('new:'),
    );
    expect(grid.rowInScope(row('3', '21'))).toBe(true);
    expect(grid.rowInScope(row('10', '11'))).toBe(false);
    expect(grid.rowInScope(row('1', '13'))).toBe(false);
    expect(grid.rowInScope(row('5', null))).toBe(false);
    expect(grid.rowInScope(row('new:1', null))).toBe(true);
    expect(grid.holderOf(row('10', '11'))).toBe('alice');
    expect(grid.holderOf(row('3', '21'))).toBe('bob');
    expect(grid.holderOf(row('1', '13'))).toBeNull();
    expect(grid.choices()).toEqual(['21']);
  });

  it('outside a scope every row is the user’s to edit (a whole-table lock), and there are no choices', () => {
    const carols = rowScopeOf(products({ rowLocks: [] }), 'carol');
    const grid = gridScope(
      'category_id',
      () => carols,
      () => false,
    );
    expect(grid.rowInScope(row('10', '11'))).toBe(true);
    expect(grid.choices()).toBeNull();
    expect(rowScopeOf(products({ rowLockColumn: null }), 'carol')).toBeNull();
  });

  it('a scope may be asked for past others’ scopes, not past a whole-table editor or a rule', () => {
    expect(onlyScopesInTheWay(null)).toBe(true);
    const byScopes = {
      kind: 'beingEdited' as const,
      blockers: [{ table: 'products', editor: 'alice', rows: ['11'] }],
    };
    expect(onlyScopesInTheWay(byScopes)).toBe(true);
    const byWhole = {
      kind: 'beingEdited' as const,
      blockers: [{ table: 'products', editor: 'alice', rows: null }],
    };
    expect(onlyScopesInTheWay(byWhole)).toBe(false);
    expect(onlyScopesInTheWay({ kind: 'frozen', blockers: [], reason: 'close' })).toBe(false);
    expect(
      onlyScopesInTheWay({
        kind: 'lockedByEditing',
        blockers: [{ table: 'price_list_items', editor: 'dan' }],
      }),
    ).toBe(false);
  });

  it('the Tables page names who edits which values', () => {
    expect(rowScopeHolders(products().rowLocks)).toBe('alice: 11, 12 · bob: 21');
  });
});
