/** One data row of a file, its cells in header order (null for an empty cell: NULL). */
export interface FileRow {
  /** The row's number as a spreadsheet shows it: the header is row 1. */
  line: number;
  cells: (string | null)[];
}
