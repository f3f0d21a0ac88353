/**
 * The names of the four triggers the write guard installs on a master table (RECORD or ENFORCE;
 * none when OFF). Row scopes rest on them: they keep a scope's writes inside it.
 */
export const GUARD_TRIGGERS = [
  'tablelock_guard_insert',
  'tablelock_guard_update',
  'tablelock_guard_delete',
  'tablelock_guard_truncate',
] as const;
