import type { LockRow } from './lockRow';

/** What the invariants look at of a registry row. */
export type InvariantRow = Pick<
  LockRow,
  'tableName' | 'status' | 'editor' | 'lockedBy' | 'references' | 'rowScopes'
>;

/**
 * The lock invariants, as a list of violations (empty when they all hold): an `editing` table
 * holds no FK lock itself and has each FK target `locked` with it among their holders, or
 * `editing` by the same editor (tables taken together, all or nothing); a `locked` table's
 * holders are all tables being edited (whole, or in row scopes) that reference it; a table with
 * row scopes is not `editing` and has each FK target locked by it. Pure, so the race tests
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
        const edited = holderRow?.status === 'editing' || (holderRow?.rowScopes ?? []).length > 0;
        if (!edited || !holderRow?.references.includes(row.tableName)) {
          violations.push(`${row.tableName} is locked by ${holder}, which does not hold it`);
        }
      }
    }
    if ((row.rowScopes ?? []).length > 0) {
      if (row.status === 'editing')
        violations.push(`${row.tableName} is editing and in row scopes`);
      for (const target of row.references) {
        const held = registry.get(target);
        if (held?.status !== 'locked' || !held.lockedBy.includes(row.tableName)) {
          violations.push(`${row.tableName} has row scopes but ${target} is not locked by it`);
        }
      }
    }
  }
  return violations;
}
