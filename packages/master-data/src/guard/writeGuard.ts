/** What the triggers on a master table do with a write that shows no valid fencing token. */
export const WRITE_GUARDS = ['OFF', 'RECORD', 'ENFORCE'] as const;
export type WriteGuard = (typeof WRITE_GUARDS)[number];

/** The names of the four triggers the guard installs on a master table. */
export const GUARD_TRIGGERS = [
  'tablelock_guard_insert',
  'tablelock_guard_update',
  'tablelock_guard_delete',
  'tablelock_guard_truncate',
] as const;
