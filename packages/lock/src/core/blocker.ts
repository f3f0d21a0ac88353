/**
 * What stands in the way of a lock change, and who: a table being edited (or, for those in
 * line, the table they wait for) and its editor (null where not known).
 */
export interface Blocker {
  table: string;
  editor: string | null;
  /** For a row scope in the way: the values of the table's row-lock column it holds. */
  rows?: string[];
}
