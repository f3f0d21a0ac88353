/**
 * What the outbox announces (the triggers of migration 20261128200000_outbox): lock transitions
 * and freezes by their lock action, changes of rows by their change kind, and a table's policy;
 * and a scheduled change request's steps (migration 20261206010000_scheduled_change_requests):
 * scheduled, applied at its time (its rows come as the change kind `scheduled`), or failed.
 */
export const EVENT_TYPES = [
  'acquire',
  'release',
  'expire',
  'force_release',
  'take_over',
  'freeze',
  'thaw',
  'save',
  'import',
  'revert',
  'locked_write',
  'unlocked_write',
  'scheduled',
  'policy_change',
  'change.scheduled',
  'change.applied',
  'change.failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(name: string): name is EventType {
  return (EVENT_TYPES as readonly string[]).includes(name);
}
