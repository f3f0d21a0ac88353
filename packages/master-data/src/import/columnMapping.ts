/**
 * Where each column of a file goes, by its header: a table column's name, or null to leave it
 * out. Columns the mapping does not name go to the table column of their own name.
 */
export type ColumnMapping = Record<string, string | null>;

/** The table column of each file column, in the file's order (null: left out). */
export const mapHeader = (header: string[], mapping: ColumnMapping | undefined) =>
  header.map((name) => (mapping && Object.hasOwn(mapping, name) ? (mapping[name] ?? null) : name));
