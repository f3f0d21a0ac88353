import { WriteGuard } from '@tablelock/db';

export { WriteGuard };

/** What the triggers on a master table may do with a write without a valid fencing token. */
export const WRITE_GUARDS: readonly WriteGuard[] = Object.values(WriteGuard);

/** The names of the four triggers the guard installs on a master table. */
export const GUARD_TRIGGERS = [
  'tablelock_guard_insert',
  'tablelock_guard_update',
  'tablelock_guard_delete',
  'tablelock_guard_truncate',
] as const;
