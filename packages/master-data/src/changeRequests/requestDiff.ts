import type { TransactionClient } from '@tablelock/db';
import type { RowValues } from '../readRows';
import type { RowChanges } from '../saveRows';
import type { MasterTable } from '../tableColumns';
import type { ChangeRequestRow } from './changeRequestRecord';
import { readRowValues } from './readRowValues';

/**
 * The diff of `changes` as the table is now: each updated or deleted row's old values, read at
 * the version the change was made against (none when the row has moved on since; applying
 * then reports the conflict).
 */
export async function requestDiff(
  tx: TransactionClient,
  table: MasterTable,
  changes: RowChanges,
): Promise<ChangeRequestRow[]> {
  const keyOf = (values: RowValues) =>
    Object.fromEntries(table.primaryKey.map(({ name }) => [name, values[name] ?? null]));
  const deletes = await Promise.all(
    (changes.deletes ?? []).map(async ({ key, version }) => ({
      action: 'delete' as const,
      key,
      version,
      oldValues: await readRowValues(tx, table, key, version),
      newValues: null,
    })),
  );
  const updates = await Promise.all(
    (changes.updates ?? []).map(async ({ key, version, values }) => {
      const old = await readRowValues(tx, table, key, version);
      const changed = Object.keys(values);
      return {
        action: 'update' as const,
        key,
        version,
        oldValues: old && Object.fromEntries(changed.map((name) => [name, old[name] ?? null])),
        newValues: values,
      };
    }),
  );
  const inserts = (changes.inserts ?? []).map(({ values }) => ({
    action: 'insert' as const,
    key: keyOf(values),
    version: null,
    oldValues: null,
    newValues: values,
  }));
  return [...deletes, ...updates, ...inserts];
}
