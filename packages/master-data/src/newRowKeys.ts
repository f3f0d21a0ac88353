import { Prisma, type Queryable } from '@tablelock/db';
import { MasterDataError } from './masterDataError';
import { columnRef } from './sqlFragments';
import { readMasterTable, type TableColumn } from './tableColumns';

/** As many keys as a grid may add at once: a paste past the last row suggests none. */
export const MAX_NEW_ROW_KEYS = 100;

/** A key ending in digits: what comes before them, and the digits. */
const NUMBERED = /^(.*?)(\d+)$/s;

const LARGEST_INTEGER: Readonly<Record<string, bigint>> = {
  smallint: 32_767n,
  integer: 2_147_483_647n,
  bigint: 9_223_372_036_854_775_807n,
};

/**
 * Free keys for `count` new rows of `tableName`, each after the table's greatest: for a table
 * whose key is one column the database does not fill itself. An integer key counts on from its
 * largest value; a text key from its greatest value ending in digits (`SKU-00042` →
 * `SKU-00043`, keeping the zeros). Empty where nothing can be suggested: a key the database
 * fills (a default, an identity), a composite key, a key of another type, or none that fits.
 * A suggestion, not a reservation: another editor may take it first, and the save then says so.
 */
export async function readNewRowKeys(
  db: Queryable,
  schema: string,
  tableName: string,
  count: number,
): Promise<string[]> {
  if (!Number.isInteger(count) || count < 1 || count > MAX_NEW_ROW_KEYS) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      `count must be a whole number from 1 to ${MAX_NEW_ROW_KEYS}.`,
    );
  }
  const table = await readMasterTable(db, schema, tableName);
  const [key, ...rest] = table.primaryKey;
  if (!key || rest.length > 0 || key.hasDefault) return [];
  if (key.kind === 'integer') return integerKeysAfterLargest(db, table.qualifiedName, key, count);
  if (key.kind === 'text') return textKeysAfterGreatest(db, table.qualifiedName, key, count);
  return [];
}

async function integerKeysAfterLargest(
  db: Queryable,
  qualifiedName: string,
  key: TableColumn,
  count: number,
): Promise<string[]> {
  const [row] = await db.$queryRaw<{ largest: string | null }[]>`
    SELECT max(${columnRef(key)})::text AS largest FROM ${Prisma.raw(qualifiedName)}`;
  const next = BigInt(row?.largest ?? '0') + 1n;
  const keys = Array.from({ length: count }, (_, index) => next + BigInt(index));
  const largestAllowed = LARGEST_INTEGER[key.dataType];
  if (largestAllowed === undefined || (keys.at(-1) ?? 0n) > largestAllowed) return [];
  return keys.map(String);
}

async function textKeysAfterGreatest(
  db: Queryable,
  qualifiedName: string,
  key: TableColumn,
  count: number,
): Promise<string[]> {
  // The natural order puts SKU-100 after SKU-99: the greatest numbered key is the last.
  const [row] = await db.$queryRaw<{ greatest: string | null }[]>`
    SELECT ${columnRef(key)}::text AS greatest FROM ${Prisma.raw(qualifiedName)}
    WHERE ${columnRef(key)}::text ~ '\\d$'
    ORDER BY ${columnRef(key)}::text COLLATE tablelock.natural_order DESC
    LIMIT 1`;
  const match = row?.greatest ? NUMBERED.exec(row.greatest) : null;
  if (!match) return [];
  const [, prefix = '', digits = ''] = match;
  const keys = Array.from(
    { length: count },
    (_, index) =>
      `${prefix}${String(BigInt(digits) + 1n + BigInt(index)).padStart(digits.length, '0')}`,
  );
  const { maxLength } = key;
  const fits = maxLength === null || keys.every((value) => [...value].length <= maxLength);
  return fits ? keys : [];
}
