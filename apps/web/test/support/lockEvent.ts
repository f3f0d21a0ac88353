import type { LockEvent } from '../../src/live/liveContext';

/** A lock event as the live feed delivers it: admin force-releasing alice's warehouses lock, unless `change` says otherwise. */
export const lockEvent = (change: Partial<LockEvent>): LockEvent => ({
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
