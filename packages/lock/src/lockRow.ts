import type { TableStatus } from '@tablelock/db';

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
}
