import { describe, expect, it } from 'vitest';
import type { LockIntent } from '../src/core/lockIntent';
import { planLockChange } from '../src/core/planLockChange';
import { DEFAULT_TABLE_RULES, type TableRules } from '../src/core/tableRules';
import { acquireIntent } from './support/lockIntents';
import { editing, locked, row, rowsOf } from './support/lockRows';

const rules = (fields: Partial<TableRules>): TableRules => ({ ...DEFAULT_TABLE_RULES, ...fields });
const freeze = { reason: 'monthly close', by: 'admin', at: new Date(0), until: null };

const acquire = (tableName: string, fields: Parameters<typeof acquireIntent>[1] = {}) =>
  acquireIntent(tableName, { rights: { role: 'editor', groups: [] }, ...fields });

const takeOver = (fields: Partial<Extract<LockIntent, { kind: 'takeOver' }>> = {}): LockIntent => ({
  kind: 'takeOver',
  tableName: 'currencies',
  editor: 'alice',
  leaseSeconds: 30,
  anyHolder: false,
  rights: { role: 'editor', groups: [] },
  ...fields,
});

// products references currencies.
const products = (fields: Partial<TableRules> = {}) =>
  row('products', { references: ['currencies'], rules: rules(fields) });
const currencies = (fields: Partial<TableRules> = {}) =>
  row('currencies', { rules: rules(fields) });

describe('planLockChange: table policies', () => {
  it('refuses to start editing a read-only table', () => {
    expect(planLockChange(acquire('currencies'), rowsOf(currencies({ readOnly: true })))).toEqual({
      granted: false,
      refusal: { kind: 'readOnly', blockers: [] },
    });
  });

  it('still locks a read-only table as an FK target', () => {
    const plan = planLockChange(
      acquire('products'),
      rowsOf(products(), currencies({ readOnly: true })),
    );
    expect(plan).toMatchObject({
      granted: true,
      changes: [
        { row: { tableName: 'products', status: 'editing' } },
        { row: { tableName: 'currencies', status: 'locked', lockedBy: ['products'] } },
      ],
    });
  });

  it('never locks a table left out of locking, and never edits it', () => {
    const left = currencies({ takesPartInLocking: false });
    const plan = planLockChange(acquire('products'), rowsOf(products(), left));
    expect(plan).toMatchObject({ granted: true });
    expect(plan.granted && plan.changes.map((change) => change.row.tableName)).toEqual([
      'products',
    ]);
    expect(planLockChange(acquire('currencies'), rowsOf(left))).toMatchObject({
      granted: false,
      refusal: { kind: 'readOnly' },
    });
  });

  it('refuses a frozen table, saying why, but locks it as an FK target', () => {
    expect(planLockChange(acquire('currencies'), rowsOf(currencies({ frozen: freeze })))).toEqual({
      granted: false,
      refusal: {
        kind: 'frozen',
        blockers: [{ table: 'currencies', editor: null }],
        reason: 'monthly close',
      },
    });
    expect(
      planLockChange(acquire('products'), rowsOf(products(), currencies({ frozen: freeze }))),
    ).toMatchObject({ granted: true });
  });

  it('lets only the roles and groups named edit, and admins always', () => {
    const onlyFinance = currencies({ editRoles: [], editGroups: ['finance'] });
    const decide = (rights: { role: 'editor' | 'admin'; groups: string[] }) =>
      planLockChange(acquire('currencies', { rights }), rowsOf(onlyFinance)).granted;
    expect(decide({ role: 'editor', groups: [] })).toBe(false);
    expect(decide({ role: 'editor', groups: ['sales', 'finance'] })).toBe(true);
    expect(decide({ role: 'admin', groups: [] })).toBe(true);
    const editorsByRole = currencies({ editRoles: ['editor'] });
    expect(planLockChange(acquire('currencies'), rowsOf(editorsByRole)).granted).toBe(true);
    expect(
      planLockChange(acquire('currencies'), rowsOf(currencies({ editRoles: ['admin'] }))),
    ).toMatchObject({ granted: false, refusal: { kind: 'notAllowed' } });
  });

  it('cuts a longer lease (or none) to the maximum, on acquisition, renewal and take-over', () => {
    const capped = currencies({ maxLeaseSeconds: 120 });
    const leaseOf = (intent: LockIntent, main = capped) => {
      const plan = planLockChange(intent, rowsOf(main));
      return plan.granted ? plan.changes[0]?.leaseSeconds : 'refused';
    };
    expect(leaseOf(acquire('currencies', { leaseSeconds: 3600 }))).toBe(120);
    expect(leaseOf(acquire('currencies', { leaseSeconds: null }))).toBe(120);
    expect(leaseOf(acquire('currencies', { leaseSeconds: 60 }))).toBe(60);
    const held = editing('currencies', 'alice', { rules: capped.rules });
    expect(
      leaseOf(
        {
          kind: 'renew',
          tableName: 'currencies',
          editor: 'alice',
          token: '41',
          leaseSeconds: 600,
          active: true,
        },
        held,
      ),
    ).toBe(120);
    expect(leaseOf(takeOver({ leaseSeconds: 600 }), held)).toBe(120);
  });

  it('lets holders of a frozen table go on renewing and releasing', () => {
    const held = editing('currencies', 'alice', { rules: rules({ frozen: freeze }) });
    expect(
      planLockChange(
        {
          kind: 'renew',
          tableName: 'currencies',
          editor: 'alice',
          token: '41',
          leaseSeconds: 60,
          active: true,
        },
        rowsOf(held),
      ).granted,
    ).toBe(true);
    expect(
      planLockChange(
        { kind: 'release', tableName: 'currencies', namedFkTables: [], editor: 'alice' },
        rowsOf(held, locked('rates', ['currencies'])),
      ).granted,
    ).toBe(true);
  });
});

describe('planLockChange: take-over rules', () => {
  const bobs = (idleSeconds: number, fields: Partial<TableRules> = {}) =>
    rowsOf(editing('currencies', 'bob', { idleSeconds, rules: rules(fields) }));
  const code = (intent: LockIntent, rows = bobs(0)) => {
    try {
      return planLockChange(intent, rows).granted ? 'granted' : 'refused';
    } catch (error) {
      return (error as { code: string }).code;
    }
  };

  it("keeps today's rule by default: one's own lock yes, someone else's no", () => {
    expect(code(takeOver({ editor: 'bob' }))).toBe('granted');
    expect(code(takeOver())).toBe('FORBIDDEN');
  });

  it('admins only: not even one’s own lock, but admins anyone’s', () => {
    expect(code(takeOver({ editor: 'bob', ownLock: false }))).toBe('FORBIDDEN');
    expect(code(takeOver({ anyHolder: true, ownLock: false }))).toBe('granted');
  });

  it('idle holder: another editor once the holder has been idle long enough', () => {
    const rule = { idleHolderSeconds: 600 };
    expect(code(takeOver(rule), bobs(599))).toBe('FORBIDDEN');
    expect(code(takeOver(rule), bobs(600))).toBe('granted');
    expect(code(takeOver(rule), bobs(900, { frozen: freeze }))).toBe('TABLE_FROZEN');
    expect(code(takeOver(rule), bobs(900, { readOnly: true }))).toBe('TABLE_READ_ONLY');
    expect(code(takeOver(rule), bobs(900, { editGroups: ['finance'] }))).toBe('FORBIDDEN');
  });
});

describe('planLockChange: a holder the policy now leaves out', () => {
  const renew = (rights = { role: 'editor' as const, groups: [] as string[] }): LockIntent => ({
    kind: 'renew',
    tableName: 'currencies',
    editor: 'alice',
    token: '41',
    leaseSeconds: 60,
    active: true,
    rights,
  });
  const code = (intent: LockIntent, fields: Partial<TableRules>) => {
    try {
      const rows = rowsOf(editing('currencies', 'alice', { rules: rules(fields) }));
      return planLockChange(intent, rows).granted ? 'granted' : 'refused';
    } catch (error) {
      return (error as { code: string }).code;
    }
  };

  it('cannot renew once the table is read-only or names other editors', () => {
    expect(code(renew(), { readOnly: true })).toBe('TABLE_READ_ONLY');
    expect(code(renew(), { takesPartInLocking: false })).toBe('TABLE_READ_ONLY');
    expect(code(renew(), { editRoles: ['admin'] })).toBe('FORBIDDEN');
    expect(code(renew(), { editGroups: ['finance'] })).toBe('FORBIDDEN');
    expect(code(renew({ role: 'editor', groups: ['finance'] }), { editGroups: ['finance'] })).toBe(
      'granted',
    );
  });

  it('cannot take its own lock over for a fresh token either; a freeze stops neither', () => {
    const own = takeOver();
    expect(code(own, { editRoles: ['admin'] })).toBe('FORBIDDEN');
    expect(code(own, { readOnly: true })).toBe('TABLE_READ_ONLY');
    expect(code(own, { frozen: freeze })).toBe('granted');
    expect(code(renew(), { frozen: freeze })).toBe('granted');
    // A frozen table the policy also leaves the holder out of: the policy decides.
    expect(code(renew(), { frozen: freeze, editRoles: ['admin'] })).toBe('FORBIDDEN');
  });
});
