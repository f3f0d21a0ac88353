/** Column values as the API sends and takes them: text, or null for NULL. */
export type RowValues = Record<string, string | null>;

/** A row as the grid holds it, stored or not yet saved. */
export interface GridRow {
  /** Stable identity: the primary key as JSON for stored rows, `new:<n>` for new ones. */
  id: string;
  /** The primary key values; null for a row not saved yet. */
  key: RowValues | null;
  /** The row version as read; null for a row not saved yet. */
  version: string | null;
  /** The values shown: as read, with the user's unsaved edits applied. */
  values: RowValues;
}

// The grid writes row ids into an HTML attribute: keep them to letters, digits and `%-_./`.
const attributeSafe = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*~]/g, (char) => `%${char.charCodeAt(0).toString(16)}`);

/**
 * The id of a stored row: its key values in table order, each escaped and joined by `/`, so
 * equal keys give equal ids and different keys never collide.
 */
export function storedRowId(key: RowValues, keyColumns: readonly string[]): string {
  return keyColumns.map((column) => attributeSafe(key[column] ?? '')).join('/');
}
