import { describe, expect, it } from 'vitest';
import { endsLock, releasedForInactivity } from '../src/table/lock/lockLoss';
import { lockEvent } from './support/lockEvent';

describe('endsLock', () => {
  it('is ended by a release, expiry or force release of the same acquisition', () => {
    for (const action of ['release', 'expire', 'force_release'] as const) {
      expect(endsLock(lockEvent({ action }), 'warehouses', '41')).toBe(true);
    }
  });

  it('is not ended by those of an earlier acquisition, or of another table', () => {
    expect(endsLock(lockEvent({ token: '40' }), 'warehouses', '41')).toBe(false);
    expect(endsLock(lockEvent({ table: 'regions' }), 'warehouses', '41')).toBe(false);
  });

  it('is ended by a newer take-over, compared as numbers, not text', () => {
    expect(endsLock(lockEvent({ action: 'take_over', token: '100' }), 'warehouses', '99')).toBe(
      true,
    );
    expect(endsLock(lockEvent({ action: 'take_over', token: '99' }), 'warehouses', '99')).toBe(
      false,
    );
  });

  it('is not ended by its own acquisition, a save or an event without a token', () => {
    expect(endsLock(lockEvent({ action: 'acquire' }), 'warehouses', '41')).toBe(false);
    expect(endsLock(lockEvent({ action: 'save', rowsChanged: 3 }), 'warehouses', '41')).toBe(false);
    expect(endsLock(lockEvent({ token: null }), 'warehouses', '41')).toBe(false);
  });
});

describe('releasedForInactivity', () => {
  it('is an expiry with the reason idle', () => {
    const idle = lockEvent({ action: 'expire', actor: 'system', reason: 'idle' });
    expect(releasedForInactivity({ event: idle })).toBe(true);
  });

  it('is not a run-out lease, another end, a loss in words or an unknown one', () => {
    const lease = lockEvent({ action: 'expire', actor: 'system', reason: 'lease expired' });
    expect(releasedForInactivity({ event: lease })).toBe(false);
    expect(releasedForInactivity({ event: lockEvent({ reason: 'idle' }) })).toBe(false);
    expect(releasedForInactivity({ message: 'You were inactive.' })).toBe(false);
    expect(releasedForInactivity(null)).toBe(false);
  });
});
