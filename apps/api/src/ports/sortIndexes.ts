import type { SecurityAudit } from '@tablelock/identity';

/** Indexes that keep every page of a sorted grid quick, whichever column users sort by. */
export interface SortIndexes {
  /**
   * Sorting `table` by `column` should be quick on any page: builds the index it needs, in the
   * background, in `requester`'s name (a security event), and notes that a sort used it.
   * Resolves when that is settled; never rejects.
   */
  request(table: string, column: string, requester: SecurityAudit): Promise<void>;
  /** Drops the sort indexes no sort asked for since `unusedSince`; how many it dropped. */
  dropUnused(unusedSince: Date): Promise<number>;
}
