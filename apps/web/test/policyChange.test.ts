import { describe, expect, it } from 'vitest';
import {
  type PolicyForm,
  policyChangeOf,
  policyFormOf,
} from '../src/admin/tableSettings/policyChange';

const stored = {
  table: 'suppliers',
  readOnly: false,
  editRoles: [],
  editGroups: ['finance', 'audit'],
  takesPartInLocking: true,
  maxLeaseSeconds: 600,
  writeGuard: null,
  labelColumn: null,
  rowLockColumn: 'region',
  changesNeedApproval: false,
  approverRoles: ['editor' as const],
  approverGroups: [],
};

const form = (edit: Partial<PolicyForm> = {}): PolicyForm => ({
  ...policyFormOf(stored, 'RECORD'),
  ...edit,
});

describe('policyChangeOf', () => {
  it('sends nothing for a form as loaded', () => {
    expect(policyChangeOf(stored, 'RECORD', form())).toEqual({});
  });

  // The security history records the settings given: a save of one switch is one change, as
  // the command line records it.
  it('sends only the setting changed', () => {
    expect(policyChangeOf(stored, 'RECORD', form({ changesNeedApproval: true }))).toEqual({
      changesNeedApproval: true,
    });
  });

  it('sends the approvers and the edit roles as lists', () => {
    const change = policyChangeOf(
      stored,
      'RECORD',
      form({
        editRoles: ['admin'],
        approverRoles: ['admin', 'editor'],
        approverGroups: ' controllers, treasury ,',
      }),
    );
    expect(change).toEqual({
      editRoles: ['admin'],
      approverRoles: ['admin', 'editor'],
      approverGroups: ['controllers', 'treasury'],
    });
  });

  it('takes groups typed in another order, spacing or twice as unchanged', () => {
    expect(
      policyChangeOf(stored, 'RECORD', form({ editGroups: ' audit ,finance, audit' })),
    ).toEqual({});
  });

  it('takes the default write guard shown for a table without one as unchanged', () => {
    expect(policyChangeOf(stored, 'RECORD', form({ writeGuard: 'RECORD' }))).toEqual({});
    expect(policyChangeOf(stored, 'RECORD', form({ writeGuard: 'ENFORCE' }))).toEqual({
      writeGuard: 'ENFORCE',
    });
  });

  it('sends a cleared lease cap and column as null', () => {
    expect(policyChangeOf(stored, 'RECORD', form({ maxLease: ' ', rowLockColumn: '' }))).toEqual({
      maxLeaseSeconds: null,
      rowLockColumn: null,
    });
  });
});
