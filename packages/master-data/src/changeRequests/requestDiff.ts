import { Prisma, type TransactionClient } from '@tablelock/db';
import type { RowValues } from '../readRows';
import type { RowChanges } from '../saveRows';
import { keyCondition } from '../sqlFragments';
import type { MasterTable } from '../tableColumns';
import type { ChangeRequestRow } from './changeRequestRecord';

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
      oldValues: await rowAt(tx, table, key, version),
      newValues: null,
    })),
  );
  const updates = await Promise.all(
    (changes.updates ?? []).map(async ({ key, version, values }) => {
      const old = await rowAt(tx, table, key, version);
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

/** A row's values as text, if it is still at `version`. */
async function rowAt(
  tx: TransactionClient,
  table: MasterTable,
  key: RowValues,
  version: string,
): Promise<RowValues | null> {
  const [row] = await tx.$queryRaw<{ values: RowValues }[]>`
    SELECT (SELECT jsonb_object_agg(e.key, e.value #>> '{}') FROM jsonb_each(to_jsonb(t)) AS e)
           AS values
    FROM ${Prisma.raw(table.qualifiedName)} AS t
    WHERE ${keyCondition(table.primaryKey, key)} AND t.xmin = ${version}::xid`;
  return row?.values ?? null;
}
