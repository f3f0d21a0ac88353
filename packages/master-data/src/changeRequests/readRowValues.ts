import { Prisma, type TransactionClient } from '@tablelock/db';
import type { RowValues } from '../readRows';
import { keyCondition } from '../sqlFragments';
import type { MasterTable } from '../tableColumns';

/** A row's values as text, if a row has that key (and, when given, is still at `version`). */
export async function readRowValues(
  tx: TransactionClient,
  table: MasterTable,
  key: RowValues,
  version: string | null = null,
): Promise<RowValues | null> {
  const atVersion = version === null ? Prisma.empty : Prisma.sql`AND t.xmin = ${version}::xid`;
  const [row] = await tx.$queryRaw<{ values: RowValues }[]>`
    SELECT (SELECT jsonb_object_agg(e.key, e.value #>> '{}') FROM jsonb_each(to_jsonb(t)) AS e)
           AS values
    FROM ${Prisma.raw(table.qualifiedName)} AS t
    WHERE ${keyCondition(table.primaryKey, key)} ${atVersion}`;
  return row?.values ?? null;
}
