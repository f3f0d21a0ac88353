import { describe, expect, it } from 'vitest';
import type { LockEvent } from '../src/live/liveContext';
import { endsLock } from '../src/table/lockLoss';

const event = (change: Partial<LockEvent>): LockEvent => ({
  id: '1',
  at: '2026-05-01T10:00:00Z',
  action: 'force_release',
  table: 'warehouses',
  actor: 'admin',
  editor: 'alice',
  token: '41',
  reason: 'stock import',
  rowsChanged: null,
  previousEditor: null,
  ...change,
});

describe('endsLock', () => {
  it('is ended by a release, expiry or force release of the same acquisition', () => {
    for (const action of ['release', 'expire', 'force_release'] as const) {
      expect(endsLock(event({ action }), 'warehouses', '41')).toBe(true);
    }
  });

  it('is not ended by those of an earlier acquisition, or of another table', () => {
    expect(endsLock(event({ token: '40' }), 'warehouses', '41')).toBe(false);
    expect(endsLock(event({ table: 'regions' }), 'warehouses', '41')).toBe(false);
  });

  it('is ended by a newer take-over, compared as numbers, not text', () => {
    expect(endsLock(event({ action: 'take_over', token: '100' }), 'warehouses', '99')).toBe(true);
    expect(endsLock(event({ action: 'take_over', token: '99' }), 'warehouses', '99')).toBe(false);
  });

  it('is not ended by its own acquisition, a save or an event without a token', () => {
    expect(endsLock(event({ action: 'acquire' }), 'warehouses', '41')).toBe(false);
    expect(endsLock(event({ action: 'save', rowsChanged: 3 }), 'warehouses', '41')).toBe(false);
    expect(endsLock(event({ token: null }), 'warehouses', '41')).toBe(false);
  });
});
