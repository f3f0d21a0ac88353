import type { LockRow, LockRowChange } from '../../src/core/lockRow';

/** A registry row as stored: its lease as an end time on the model's clock, not a flag. */
export interface StoredRow extends Omit<LockRow, 'leaseExpired'> {
  /** Seconds on the model's clock; null: no lease (not editing, or no expiry). */
  leaseEndsAt: number | null;
}

/** The lock registry as a value: its rows, its clock, and the fencing token sequence. */
export interface RegistryModel {
  rows: ReadonlyMap<string, StoredRow>;
  now: number;
  lastToken: bigint;
}

/** A registry of `normal` tables with these FK targets (sorted, no self-references). */
export function registryModel(references: ReadonlyMap<string, string[]>): RegistryModel {
  const rows = new Map<string, StoredRow>();
  for (const [tableName, targets] of references) {
    rows.set(tableName, {
      tableName,
      status: 'normal',
      editor: null,
      lockedBy: [],
      references: targets,
      version: 1,
      fencingToken: null,
      leaseEndsAt: null,
    });
  }
  return { rows, now: 0, lastToken: 0n };
}

/**
 * The rows a lock change on `tableName` reads, as lockScopeQuery (sql/lockScope.ts) selects
 * them: the table, the named FK tables, the table's FK targets, and every table it holds; each
 * with `leaseExpired` as `lease_expires_at <= now()`.
 */
export function readLockScope(
  model: RegistryModel,
  tableName: string,
  namedFkTables: string[],
): Map<string, LockRow> {
  const references = model.rows.get(tableName)?.references ?? [];
  const scope = new Map<string, LockRow>();
  for (const { leaseEndsAt, ...row } of model.rows.values()) {
    const inScope =
      row.tableName === tableName ||
      namedFkTables.includes(row.tableName) ||
      references.includes(row.tableName) ||
      row.lockedBy.includes(tableName);
    if (inScope) {
      scope.set(row.tableName, {
        ...row,
        leaseExpired: leaseEndsAt !== null && leaseEndsAt <= model.now,
      });
    }
  }
  return scope;
}

/**
 * The registry once `changes` are written, as the `written` step of compareAndSetQuery
 * (sql/compareAndSet.ts) writes them: status, editor and locked_by as planned (references never);
 * a row that is not `editing` loses token and lease; `grant` draws the next token; a
 * `leaseSeconds` that is present sets the lease from now (null: none); the version moves on.
 */
export function applyLockChanges(model: RegistryModel, changes: LockRowChange[]): RegistryModel {
  const rows = new Map(model.rows);
  let lastToken = model.lastToken;
  for (const { row, grant, leaseSeconds } of changes) {
    const stored = rows.get(row.tableName);
    if (!stored)
      throw new Error(`The plan changes ${row.tableName}, which is not in the registry.`);
    const isEditing = row.status === 'editing';
    if (isEditing && grant) lastToken += 1n;
    rows.set(row.tableName, {
      ...stored,
      status: row.status,
      editor: row.editor,
      lockedBy: row.lockedBy,
      fencingToken: !isEditing ? null : grant ? String(lastToken) : stored.fencingToken,
      leaseEndsAt: isEditing ? leaseEnd(model.now, stored.leaseEndsAt, leaseSeconds) : null,
      version: stored.version + 1,
    });
  }
  return { rows, now: model.now, lastToken };
}

function leaseEnd(now: number, current: number | null, leaseSeconds: number | null | undefined) {
  if (leaseSeconds === undefined) return current;
  return leaseSeconds === null ? null : now + leaseSeconds;
}

/** The registry `seconds` later: leases run out, nothing else changes. */
export const advanceClock = (model: RegistryModel, seconds: number): RegistryModel => ({
  ...model,
  now: model.now + seconds,
});
