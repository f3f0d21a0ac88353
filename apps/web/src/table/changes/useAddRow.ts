import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { newRowKeysOptions } from './newRowKeyOperations';
import type { PendingChanges } from './PendingChanges';
import type { ColumnRules } from './validateValue';

/** The most keys asked for at once: beyond, a new row starts without a suggestion. */
const MOST_KEYS_ASKED = 100;

/**
 * Adds a row on top, with `values` (a row scope's value) and, where the table's key is one
 * column the user would otherwise invent, the first free key that no other new row holds yet.
 * The key is only a suggestion: the user may overwrite it, and a key someone else saved first
 * comes back from Save as a UNIQUE error on its cell. Without an answer the row starts empty.
 */
export function useAddRow(
  table: string,
  pending: PendingChanges,
  columns: readonly (ColumnRules & { primaryKey: boolean })[],
  values: Readonly<Record<string, string>> | undefined,
): () => Promise<void> {
  const queryClient = useQueryClient();
  const keyColumn = inventedKeyOf(columns);
  return useCallback(async () => {
    const newRows = pending.newRows();
    // Each new row holds at most one of the keys: one more than there are rows leaves one free.
    const count = newRows.length + 1;
    if (!keyColumn || values?.[keyColumn] || count > MOST_KEYS_ASKED) {
      pending.addRow(values);
      return;
    }
    const taken = new Set(newRows.map((row) => row.values[keyColumn]));
    const keys = await queryClient.fetchQuery(newRowKeysOptions(table, count)).catch(() => []);
    const free = keys.find((key) => !taken.has(key));
    pending.addRow(free === undefined ? values : { ...values, [keyColumn]: free });
  }, [queryClient, table, pending, keyColumn, values]);
}

/** The table's one key column when the database does not fill it: the user would invent it. */
function inventedKeyOf(columns: readonly (ColumnRules & { primaryKey: boolean })[]): string | null {
  const keys = columns.filter((column) => column.primaryKey);
  const [key] = keys;
  return keys.length === 1 && key && !key.hasDefault ? key.name : null;
}
