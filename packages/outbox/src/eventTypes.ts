/**
 * What the outbox announces (the triggers of migration 20261128200000_outbox): lock transitions
 * and freezes by their lock action, changes of rows by their change kind, and a table's policy.
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
  'policy_change',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(name: string): name is EventType {
  return (EVENT_TYPES as readonly string[]).includes(name);
}
