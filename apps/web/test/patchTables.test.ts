import { describe, expect, it } from 'vitest';
import type { LiveLockEvent } from '../src/live/liveContext';
import { patchTablePage, patchTableRows, replaceRows } from '../src/tables/patchTables';
import type { TablePageView } from '../src/tables/useTablePage';
import type { TableInfo } from '../src/tables/useTables';

const row = (name: string, change: Partial<TableInfo> = {}): TableInfo => ({
  name,
  status: 'normal',
  editor: null,
  lockedBy: [],
  references: [],
  referencedBy: [],
  version: 1,
  updatedAt: '2026-05-01T10:00:00Z',
  acquiredAt: null,
  leaseExpiresAt: null,
  idleLimitSeconds: 900,
  editBlock: null,
  waiters: [],
  frozen: null,
  policy: { readOnly: false, takesPartInLocking: true, changesNeedApproval: false },
  canTakeOver: false,
  rowLockColumn: null,
  rowLocks: [],
  ...change,
});

type State = NonNullable<LiveLockEvent['tables']>[number];
const state = (name: string, change: Partial<State>): State => ({
  name,
  status: 'locked',
  previousStatus: 'normal',
  editor: 'alice',
  lockedBy: ['products'],
  version: 2,
  updatedAt: '2026-05-01T10:01:00Z',
  acquiredAt: null,
  leaseExpiresAt: null,
  ...change,
});

const event = (change: Partial<LiveLockEvent>): LiveLockEvent => ({
  id: '9',
  at: '2026-05-01T10:01:00Z',
  action: 'acquire',
  table: 'products',
  actor: 'alice',
  editor: 'alice',
  token: '12',
  reason: null,
  rowsChanged: null,
  previousEditor: null,
  tables: [],
  ...change,
});

// alice starts editing products, which locks categories.
const acquired = event({
  tables: [
    state('categories', {}),
    state('products', {
      status: 'editing',
      lockedBy: [],
      acquiredAt: '2026-05-01T10:01:00Z',
      leaseExpiresAt: '2026-05-01T10:01:30Z',
    }),
  ],
});

describe('patchTableRows', () => {
  it('applies newer states and rereads the rows whose editBlock may have changed', () => {
    const rows = [
      row('categories'),
      row('order_lines', { references: ['products'] }),
      row('products', { references: ['categories'] }),
      row('regions'),
    ];
    const patched = patchTableRows(rows, acquired, true);
    expect(patched.rows.map((table) => [table.name, table.status, table.editor])).toEqual([
      ['categories', 'locked', 'alice'],
      ['order_lines', 'normal', null],
      ['products', 'editing', 'alice'],
      ['regions', 'normal', null],
    ]);
    expect(patched.rows[2]?.leaseExpiresAt).toBe('2026-05-01T10:01:30Z');
    expect(patched.reread).toEqual(['categories', 'order_lines', 'products']);
  });

  it('keeps a row that is newer than the state (events and reads may cross)', () => {
    const patched = patchTableRows([row('categories', { version: 5 })], acquired, true);
    expect(patched.rows[0]).toMatchObject({ status: 'normal', version: 5 });
  });

  it('rereads who may be behind a queued table: it, its FK targets, those referencing it', () => {
    const rows = [
      row('categories'),
      row('order_lines', { references: ['products'] }),
      row('products', { references: ['categories'] }),
      row('regions'),
    ];
    const queued = event({ action: 'queued', tables: [] });
    expect(patchTableRows(rows, queued, true).reread).toEqual([
      'categories',
      'order_lines',
      'products',
    ]);
    expect(patchTableRows(rows.slice(3), queued, false).reread).toEqual(['regions']);
  });

  it('rereads nothing after a save', () => {
    expect(patchTableRows([row('products')], event({ action: 'save' }), true).reread).toEqual([]);
  });
});

describe('patchTablePage', () => {
  const page = (view: TablePageView, tables: TableInfo[], total: number) => ({
    view,
    data: { total, counts: { normal: total, editing: 0, locked: 0 }, tables },
  });

  it('moves the changed tables matching the search between the counts', () => {
    const { view, data } = page(
      { search: 'CAT', status: null, offset: 0, limit: 100 },
      [row('categories')],
      1,
    );
    const patched = patchTablePage(data, view, acquired);
    expect(patched.page.counts).toEqual({ normal: 0, editing: 0, locked: 1 });
    expect(patched.page.total).toBe(1);
    expect(patched.membershipChanged).toBe(false);
    expect(patched.page.tables[0]?.status).toBe('locked');
  });

  it('counts a change its page shows already (read after it) once', () => {
    const { view, data } = page(
      { search: '', status: null, offset: 0, limit: 100 },
      [row('categories', { status: 'locked', version: 2 })],
      1,
    );
    const counted = { ...data, counts: { normal: 0, editing: 0, locked: 1 } };
    const patched = patchTablePage(counted, view, event({ tables: [state('categories', {})] }));
    expect(patched.page.counts).toEqual({ normal: 0, editing: 0, locked: 1 });
  });

  it('says when a table entered or left the status shown: only the API knows where it goes', () => {
    const { view, data } = page({ search: '', status: 'normal', offset: 0, limit: 100 }, [], 7);
    const patched = patchTablePage(data, view, acquired);
    expect(patched.membershipChanged).toBe(true);
    expect(patched.page.total).toBe(5);
  });
});

describe('replaceRows', () => {
  it('takes fresh rows as new as or newer than those held', () => {
    const fresh = new Map([
      [
        'categories',
        row('categories', {
          version: 2,
          editBlock: { kind: 'beingEdited', reason: null, blockers: [] },
        }),
      ],
      ['regions', row('regions', { version: 1 })],
    ]);
    const replaced = replaceRows(
      [row('categories', { version: 2 }), row('regions', { version: 3 })],
      fresh,
    );
    expect(replaced.map((table) => [table.version, table.editBlock?.kind ?? null])).toEqual([
      [2, 'beingEdited'],
      [3, null],
    ]);
  });
});
