import { describe, expect, it } from 'vitest';
import type { LockRow } from '../src/core/lockRow';
import { planLockChange } from '../src/core/planLockChange';

const editedBy = (editor: string): LockRow => ({
  tableName: 'currencies',
  status: 'editing',
  editor,
  lockedBy: [],
  references: [],
  version: 7,
  fencingToken: '41',
  leaseExpired: false,
});

const takeOver = (editor: string, anyHolder: boolean) =>
  planLockChange(
    { kind: 'takeOver', tableName: 'currencies', editor, leaseSeconds: 30, anyHolder },
    new Map([['currencies', editedBy('bob')]]),
  );

describe('planLockChange: takeOver', () => {
  it("refuses an editor taking over someone else's lock", () => {
    expect(() => takeOver('alice', false)).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', message: expect.stringContaining('bob') }),
    );
  });

  it('lets the holder take over their own lock from another tab', () => {
    expect(takeOver('bob', false)).toMatchObject({
      granted: true,
      changes: [{ row: { editor: 'bob', version: 7 }, grant: true, leaseSeconds: 30 }],
    });
  });

  it("lets an admin take over anyone's lock", () => {
    expect(takeOver('admin', true)).toMatchObject({
      granted: true,
      changes: [{ row: { editor: 'admin' }, grant: true }],
    });
  });
});
