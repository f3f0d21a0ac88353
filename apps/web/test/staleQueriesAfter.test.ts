import { describe, expect, it } from 'vitest';
import { staleQueriesAfter } from '../src/app/staleQueriesAfter';
import type { LockEvent } from '../src/live/liveContext';

const event = (action: LockEvent['action']): LockEvent => ({
  id: '7',
  at: '2026-05-01T10:00:00Z',
  action,
  table: 'currencies',
  actor: 'alice',
  editor: 'alice',
  token: '12',
  reason: null,
  rowsChanged: action === 'save' ? 1 : null,
  previousEditor: null,
});

describe('staleQueriesAfter', () => {
  // Lock states are patched from the event's table states (patchTables), never refetched whole.
  it('refreshes the history after a lock change', () => {
    expect(staleQueriesAfter(event('acquire'))).toEqual([['lockEvents']]);
  });

  it('refreshes the history when someone joins or leaves the line', () => {
    expect(staleQueriesAfter(event('queued'))).toEqual([['lockEvents']]);
    expect(staleQueriesAfter(event('dequeued'))).toEqual([['lockEvents']]);
  });

  it('also refreshes the saved table’s rows after a save', () => {
    expect(staleQueriesAfter(event('save'))).toEqual([['lockEvents'], ['rows', 'currencies']]);
  });

  it('refreshes the change requests and what is planned (editions, calendar) after a step of one, or a force release that ends one', () => {
    const steps = [
      'request_submitted',
      'request_approved',
      'request_scheduled',
      'request_moved',
      'request_applied',
      'request_failed',
      'force_release',
    ] as const;
    for (const action of steps) {
      expect(staleQueriesAfter(event(action))).toEqual([
        ['lockEvents'],
        ['changeRequests'],
        ['schedule'],
      ]);
    }
  });
});
