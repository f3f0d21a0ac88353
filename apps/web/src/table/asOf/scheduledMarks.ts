import type { RowPageQuery } from '../../generated/graphql';

/** One cell a scheduled change request changes, as a page of `rows(asOf:)` lists it. */
export type ScheduledChange = RowPageQuery['rows']['rows'][number]['scheduledChanges'][number];

/**
 * The cells scheduled change requests change, by row, as the pages of `rows(asOf:)` said:
 * what the grid marks, and names in a cell's tooltip.
 */
export class ScheduledMarks {
  readonly #byRow = new Map<string, readonly ScheduledChange[]>();

  remember(rowId: string, changes: readonly ScheduledChange[]): void {
    if (changes.length > 0) this.#byRow.set(rowId, changes);
    else this.#byRow.delete(rowId);
  }

  /** The changes of one cell, in the order they apply; empty for a cell none changes. */
  of(rowId: string, column: string): ScheduledChange[] {
    return (this.#byRow.get(rowId) ?? []).filter((change) => change.column === column);
  }
}
