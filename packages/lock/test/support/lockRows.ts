import type { LockRow } from '../../src/core/lockRow';

/**
 * A registry row as the lock transaction reads it: `normal`, unheld, referencing nothing, unless
 * `fields` say otherwise. Frozen, arrays too: a planner that wrote to the rows it reads would
 * throw instead of passing by accident.
 */
export function row(tableName: string, fields: Partial<Omit<LockRow, 'tableName'>> = {}): LockRow {
  const built: LockRow = {
    tableName,
    status: 'normal',
    editor: null,
    lockedBy: [],
    references: [],
    version: 1,
    fencingToken: null,
    leaseExpired: false,
    ...fields,
  };
  Object.freeze(built.lockedBy);
  Object.freeze(built.references);
  return Object.freeze(built);
}

/** `tableName` being edited by `editor` under fencing token 41, its lease running. */
export const editing = (
  tableName: string,
  editor: string,
  fields: Partial<Omit<LockRow, 'tableName' | 'status' | 'editor'>> = {},
): LockRow => row(tableName, { status: 'editing', editor, fencingToken: '41', ...fields });

/** `tableName` held by the shared FK locks of `lockedBy`. */
export const locked = (
  tableName: string,
  lockedBy: string[],
  fields: Partial<Omit<LockRow, 'tableName' | 'status' | 'lockedBy'>> = {},
): LockRow => row(tableName, { status: 'locked', lockedBy, ...fields });

/** The rows a lock change reads, by name, in the order given (the order of the changes). */
export const rowsOf = (...rows: LockRow[]): ReadonlyMap<string, LockRow> =>
  new Map(rows.map((r) => [r.tableName, r]));
