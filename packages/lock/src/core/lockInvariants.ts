import type { LockRow } from './lockRow';

/** What the invariants look at of a registry row. */
export type InvariantRow = Pick<
  LockRow,
  'tableName' | 'status' | 'editor' | 'lockedBy' | 'references'
>;

/**
 * The lock invariants, as a list of violations (empty when they all hold): an `editing` table
 * holds no FK lock itself and has each FK target `locked` with it among their holders, or
 * `editing` by the same editor (tables taken together, all or nothing); a `locked` table's
 * holders are all `editing` tables that reference it. Pure, so the race tests
 * check a real registry and the property tests a model of it against the same definition.
 */
export function lockInvariantViolations(registry: ReadonlyMap<string, InvariantRow>): string[] {
  const violations: string[] = [];
  for (const row of registry.values()) {
    if (row.status === 'editing') {
      if (row.lockedBy.length > 0) violations.push(`${row.tableName} is editing and locked`);
      for (const target of row.references) {
        const held = registry.get(target);
        const lockedByIt = held?.status === 'locked' && held.lockedBy.includes(row.tableName);
        const editedWithIt = held?.status === 'editing' && held.editor === row.editor;
        if (!lockedByIt && !editedWithIt) {
          violations.push(`${row.tableName} is editing but ${target} is not locked by it`);
        }
      }
    }
    if (row.status === 'locked') {
      if (row.lockedBy.length === 0) violations.push(`${row.tableName} is locked by nobody`);
      for (const holder of row.lockedBy) {
        const holderRow = registry.get(holder);
        if (holderRow?.status !== 'editing' || !holderRow.references.includes(row.tableName)) {
          violations.push(`${row.tableName} is locked by ${holder}, which does not hold it`);
        }
      }
    }
  }
  return violations;
}
