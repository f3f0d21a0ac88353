import type { RowValues } from '../readRows';

/** One string per row key, whatever the order of its columns: to match keys of several sources. */
export function rowKeyId(key: RowValues): string {
  return JSON.stringify(
    Object.keys(key)
      .sort()
      .map((column) => [column, key[column] ?? null]),
  );
}
