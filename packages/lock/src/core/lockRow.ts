import type { Blocker } from './blocker';
import type { TableRules } from './tableRules';
import type { TableStatus } from './tableStatus';

/** The lock state of one master table, as the lock transaction reads and writes it. */
export interface LockRow {
  tableName: string;
  status: TableStatus;
  editor: string | null;
  /** Holder tables of a shared FK lock, sorted. */
  lockedBy: string[];
  /** FK targets discovered from the catalog, sorted. */
  references: string[];
  /** The row version it was read at: a write succeeds only if it is still current. */
  version: number;
  /** The current acquisition's fencing token (a bigint, as text), while `editing`. */
  fencingToken: string | null;
  /** Whether the lease had run out when the row was read (by the database clock). */
  leaseExpired: boolean;
  /**
   * Whether its holder has reported no activity for longer than the table's idle limit (database
   * clock; see idleLimit.ts). Like a lease run out, it ends the lock.
   */
  idleExpired?: boolean;
  /**
   * For an acquisition: those in line before the caller who want this table (to edit it, or to
   * lock it if it is the table asked for), first in line first. They go first.
   */
  waitersAhead?: Blocker[];
  /** The admin's rules for the table (a freeze in force included); absent: the defaults. */
  rules?: TableRules;
  /** While `editing`: for how many seconds the holder has shown no activity (database clock). */
  idleSeconds?: number | null;
  /** Its lock waits with a pending change request, which ends it by its decision. */
  carriesChangeRequest?: boolean;
  /**
   * Its row scopes (docs/decisions/0021), oldest first: while any is held the table is edited
   * in parts (IX), so it can be neither edited whole nor locked as a reference.
   */
  rowScopes?: RowScopeHolder[];
}

/** Who holds a row scope of a table, and which values of its row-lock column. */
export interface RowScopeHolder {
  editor: string;
  rows: string[];
}

/**
 * A row as a plan wants it written. `grant` starts a new acquisition on it (new fencing token,
 * acquired now, active now) and `leaseSeconds` sets its lease from now (null: no expiry); a row left
 * `editing` without them keeps its token and lease.
 */
export interface LockRowChange {
  row: LockRow;
  grant?: boolean;
  leaseSeconds?: number | null;
  /** Its holder showed activity: its idle time starts again from now (see idleLimit.ts). */
  active?: boolean;
}
