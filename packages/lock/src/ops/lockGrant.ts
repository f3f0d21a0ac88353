import type { LockChangeResult } from './changeTableLock';

/** What the holder gets from an acquisition, renewal or take-over. */
export interface LockGrant {
  tableName: string;
  editor: string;
  /** Present it with every write of master data; a newer acquisition makes it stale. */
  fencingToken: string;
  /** When the lock expires unless renewed (database clock); null: never. */
  leaseExpiresAt: Date | null;
  /** When the holder last showed activity (database clock): an acquisition or active renewal. */
  lastActiveAt: Date | null;
  /**
   * The table's idle limit: the lock ends once its holder has shown no activity for this long.
   * Null: the lock does not go idle (it has no lease).
   */
  idleLimitSeconds: number | null;
  /** The tables now `locked` because this one is being edited. */
  lockedTables: string[];
  /** A row scope's values of the row-lock column (docs/decisions/0021); absent for the whole table. */
  rows?: string[];
}

export function lockGrantOf(result: LockChangeResult, tableName: string): LockGrant {
  const main = result.rows.get(tableName);
  if (!result.written || !main?.editor || !result.fencingToken) {
    throw new Error(`${tableName} was not granted`);
  }
  return {
    tableName,
    editor: main.editor,
    fencingToken: result.fencingToken,
    leaseExpiresAt: result.leaseExpiresAt,
    lastActiveAt: result.lastActiveAt,
    idleLimitSeconds: result.idleLimitSeconds,
    lockedTables: [...result.rows.values()]
      .filter((row) => row.lockedBy.includes(tableName))
      .map((row) => row.tableName)
      .sort(),
  };
}

const reviveDate = (date: string | null | undefined) => (date ? new Date(date) : null);

/** A grant stored as an idempotent request's answer (JSON: dates as strings), as it was. */
export function reviveGrant(stored: unknown): LockGrant {
  const grant = stored as LockGrant & {
    leaseExpiresAt: string | null;
    lastActiveAt?: string | null;
    idleLimitSeconds?: number | null;
  };
  return {
    ...grant,
    leaseExpiresAt: reviveDate(grant.leaseExpiresAt),
    // Answers stored before idle limits existed have neither.
    lastActiveAt: reviveDate(grant.lastActiveAt),
    idleLimitSeconds: grant.idleLimitSeconds ?? null,
  };
}

/** Grants stored together (an all-or-nothing acquisition of several tables), as they were. */
export function reviveGrants(stored: unknown): LockGrant[] {
  return (stored as unknown[]).map(reviveGrant);
}
