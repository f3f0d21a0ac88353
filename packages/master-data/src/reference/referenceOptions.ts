import { Prisma, type PrismaClient, type Queryable } from '@tablelock/db';
import { z } from 'zod';
import { MasterDataError } from '../masterDataError';
import { refuseValuesThatDoNotFit } from '../postgresError';
import { columnRef } from '../sqlFragments';
import { readMasterTable } from '../tableColumns';
import { type ReferenceTarget, readReferenceTarget } from './referenceTarget';

export const MAX_REFERENCE_OPTIONS = 100;

export interface ReferenceOptionQuery {
  /** Matched against the key exactly and anywhere in the label (see `tablelock.search_form`). */
  search?: string | null;
  first: number;
  after?: string | null;
}

export interface ReferenceOption {
  key: string;
  label: string | null;
}

export interface ReferenceOptionPage {
  target: ReferenceTarget;
  options: ReferenceOption[];
  /** Where the next options start; null on the last page. */
  endCursor: string | null;
}

const optionQuery = z.object({
  search: z.string().max(200).nullish(),
  first: z.number().int().min(1).max(MAX_REFERENCE_OPTIONS),
  after: z.string().nullish(),
});

/** Where a page of options ended: the last label and key, in the search it was. */
const cursorBody = z.object({
  search: z.string(),
  label: z.string().nullable(),
  key: z.string().nullable(),
});
type OptionCursor = z.infer<typeof cursorBody>;

interface OptionRow extends ReferenceOption {
  /** Where it stands in the list (its label, or its key); null for the key's row. */
  sortLabel: string | null;
  /** False for the row whose key is the search, offered before the list. */
  listed: boolean;
}

/**
 * A page of the rows a foreign-key column may point at, for value help. Without a search, by
 * key (the target's primary or unique key index). With one, the row whose key is the search,
 * then the rows with the search anywhere in their label, compared in `tablelock.search_form`
 * (width, case and kana folded), by label with numbers in numeric order. A trigram index on the
 * label's search form, or one on the label in that order for a search most rows match (README,
 * "Index for value help on large tables"), spares a large target from being read whole.
 */
export async function readReferenceOptions(
  prisma: PrismaClient,
  schema: string,
  tableName: string,
  columnName: string,
  query: ReferenceOptionQuery,
): Promise<ReferenceOptionPage> {
  const { target, statements, search } = await plan(prisma, schema, tableName, columnName, query);
  try {
    const rows = (
      await Promise.all(statements.map((statement) => prisma.$queryRaw<OptionRow[]>(statement)))
    ).flat();
    const options = rows.slice(0, query.first);
    const lastListed = options.filter((row) => row.listed).at(-1);
    const endCursor =
      rows.length > query.first
        ? encode({ search, label: lastListed?.sortLabel ?? null, key: lastListed?.key ?? null })
        : null;
    return { target, options: options.map(({ key, label }) => ({ key, label })), endCursor };
  } catch (error) {
    refuseValuesThatDoNotFit(error);
  }
}

/** The statements readReferenceOptions runs (the exact key's, then the list), for EXPLAIN. */
export async function referenceSearchStatements(
  db: Queryable,
  schema: string,
  tableName: string,
  columnName: string,
  query: ReferenceOptionQuery,
): Promise<Prisma.Sql[]> {
  return (await plan(db, schema, tableName, columnName, query)).statements;
}

async function plan(
  db: Queryable,
  schema: string,
  tableName: string,
  columnName: string,
  query: ReferenceOptionQuery,
) {
  const parsed = optionQuery.safeParse(query);
  if (!parsed.success) throw new MasterDataError('BAD_USER_INPUT', z.prettifyError(parsed.error));
  const table = await readMasterTable(db, schema, tableName);
  const target = await readReferenceTarget(db, schema, table, columnName);
  const search = query.search?.trim() ?? '';
  const after = query.after ? decode(query.after, search) : null;
  const limit = query.first + 1;
  const statements =
    search === ''
      ? [byKey(target, after, limit)]
      : target.label === null
        ? [exactKeyRow(target, search)]
        : [
            ...(after ? [] : [exactKeyRow(target, search)]),
            labelsContaining(target, search, after, limit),
          ];
  return { target, statements, search };
}

const keyText = (target: ReferenceTarget) => Prisma.sql`${columnRef(target.key)}::text`;
const labelText = (target: ReferenceTarget) =>
  target.label ? Prisma.sql`${columnRef(target.label)}::text` : Prisma.sql`NULL::text`;
const typedKey = (target: ReferenceTarget, value: string) =>
  Prisma.sql`${value}::${Prisma.raw(target.key.dataType)}`;

/** Every row by key, from the target's key index. */
function byKey(target: ReferenceTarget, after: OptionCursor | null, limit: number): Prisma.Sql {
  const key = columnRef(target.key);
  return Prisma.sql`
    SELECT ${keyText(target)} AS key, ${labelText(target)} AS label, ${keyText(target)} AS "sortLabel",
           true AS listed
    FROM ${Prisma.raw(target.table.qualifiedName)}
    ${after?.key != null ? Prisma.sql`WHERE ${key} > ${typedKey(target, after.key)}` : Prisma.empty}
    ORDER BY ${key}
    LIMIT ${limit}`;
}

/** The search as a value of the key's type, NULL when it is none (then no row matches it). */
function searchAsKey(target: ReferenceTarget, search: string): Prisma.Sql {
  const valid = Prisma.sql`pg_input_is_valid(${search}, ${target.key.dataType})`;
  return Prisma.sql`(CASE WHEN ${valid} THEN ${search} END)::${Prisma.raw(target.key.dataType)}`;
}

function exactKeyRow(target: ReferenceTarget, search: string): Prisma.Sql {
  return Prisma.sql`
    SELECT ${keyText(target)} AS key, ${labelText(target)} AS label, NULL::text AS "sortLabel",
           false AS listed
    FROM ${Prisma.raw(target.table.qualifiedName)}
    WHERE ${columnRef(target.key)} = ${searchAsKey(target, search)}`;
}

/** The label in the order people read it: numbers by value (see migration value_help_anywhere). */
const naturalOrder = (target: ReferenceTarget) =>
  Prisma.sql`${labelText(target)} COLLATE "tablelock"."natural_order"`;

/**
 * The rows whose label's search form contains the search's, by label in natural order. LIKE with
 * the search's LIKE characters escaped, so a trigram index on `tablelock.search_form(label)`
 * serves it. The row of the key equal to the search is left out: it is offered first, on its own.
 */
function labelsContaining(
  target: ReferenceTarget,
  search: string,
  after: OptionCursor | null,
  limit: number,
): Prisma.Sql {
  const key = columnRef(target.key);
  const escaped = Prisma.sql`replace(replace(replace(tablelock.search_form(${search}), '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;
  const conditions = [
    Prisma.sql`tablelock.search_form(${labelText(target)}) LIKE '%' || ${escaped} || '%'`,
    Prisma.sql`${key} IS DISTINCT FROM ${searchAsKey(target, search)}`,
  ];
  if (after?.label != null && after.key != null) {
    conditions.push(
      Prisma.sql`(${naturalOrder(target)}, ${key}) > (${after.label}, ${typedKey(target, after.key)})`,
    );
  }
  return Prisma.sql`
    SELECT ${keyText(target)} AS key, ${labelText(target)} AS label, ${labelText(target)} AS "sortLabel",
           true AS listed
    FROM ${Prisma.raw(target.table.qualifiedName)}
    WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY ${naturalOrder(target)}, ${key}
    LIMIT ${limit}`;
}

function encode(cursor: OptionCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decode(cursor: string, search: string): OptionCursor {
  let body: OptionCursor;
  try {
    body = cursorBody.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new MasterDataError('BAD_USER_INPUT', 'The cursor is not one this API gave out.');
  }
  if (body.search !== search) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      'The cursor belongs to another search; ask for the first options again.',
    );
  }
  return body;
}
