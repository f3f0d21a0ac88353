import { type PrismaClient, postgresErrorCode } from '@tablelock/db';
import { z } from 'zod';
import { MasterDataError } from '../masterDataError';
import { rowViewShape } from '../rowView';
import { readMasterTable } from '../tableColumns';
import { type ColumnLayout, checkColumnLayout, storedColumnLayout } from './columnLayout';

export interface SavedView {
  id: string;
  table: string;
  name: string;
  owner: string;
  shared: boolean;
  sort: { column: string; direction: 'asc' | 'desc' }[];
  /** The grid's filter model, by column: the web app's own description of its filters. */
  filter: Record<string, unknown>;
  columns: ColumnLayout[];
}

export interface SavedViewInput {
  table: string;
  name: string;
  shared: boolean;
  sort: unknown;
  filter: unknown;
  columns: unknown;
}

/** Saved views one person may keep per table. */
export const MAX_SAVED_VIEWS_PER_TABLE = 50;

const viewInput = z.object({
  name: z.string().trim().min(1).max(100),
  sort: rowViewShape.sort,
  filter: z.record(z.string(), z.record(z.string(), z.unknown())),
});

type StoredView = NonNullable<Awaited<ReturnType<PrismaClient['savedView']['findFirst']>>>;

function asSavedView(stored: StoredView, columns: ColumnLayout[]): SavedView {
  return {
    id: stored.id,
    table: stored.tableName,
    name: stored.name,
    owner: stored.ownerName,
    shared: stored.shared,
    sort: stored.sort as SavedView['sort'],
    filter: stored.filter as SavedView['filter'],
    columns,
  };
}

/** The views of a table the owner may pick: their own, then those others shared, by name. */
export async function listSavedViews(
  prisma: PrismaClient,
  schema: string,
  owner: string,
  tableName: string,
): Promise<SavedView[]> {
  const table = await readMasterTable(prisma, schema, tableName);
  const views = await prisma.savedView.findMany({
    where: { tableName, OR: [{ ownerName: owner }, { shared: true }] },
    orderBy: [{ name: 'asc' }, { ownerName: 'asc' }],
  });
  return views
    .map((view) => asSavedView(view, storedColumnLayout(table, view.columns)))
    .sort((a, b) => Number(b.owner === owner) - Number(a.owner === owner));
}

/** One view by id, if it is the reader's or shared; else NOT_FOUND (a private view stays hidden). */
export async function readSavedView(
  prisma: PrismaClient,
  schema: string,
  reader: string,
  id: string,
): Promise<SavedView> {
  const view = z.uuid().safeParse(id).success
    ? await prisma.savedView.findFirst({
        where: { id, OR: [{ ownerName: reader }, { shared: true }] },
      })
    : null;
  if (!view) throw new MasterDataError('NOT_FOUND', 'No saved view has this id.');
  const table = await readMasterTable(prisma, schema, view.tableName);
  return asSavedView(view, storedColumnLayout(table, view.columns));
}

/** Saves a view under its name: a view of the owner's with that name on the table is replaced. */
export async function saveView(
  prisma: PrismaClient,
  schema: string,
  owner: string,
  input: SavedViewInput,
): Promise<SavedView> {
  const parsed = viewInput.safeParse(input);
  if (!parsed.success) throw new MasterDataError('BAD_USER_INPUT', z.prettifyError(parsed.error));
  const table = await readMasterTable(prisma, schema, input.table);
  const columns = checkColumnLayout(table, input.columns);
  const named = new Set(table.columns.map((column) => column.name));
  for (const column of [
    ...parsed.data.sort.map((sort) => sort.column),
    ...Object.keys(parsed.data.filter),
  ]) {
    if (!named.has(column)) {
      throw new MasterDataError('BAD_USER_INPUT', `${table.name} has no column named ${column}.`);
    }
  }
  const data = {
    shared: input.shared,
    sort: parsed.data.sort,
    filter: parsed.data.filter as object,
    columns: columns as object[],
  };
  const where = {
    ownerName_tableName_name: { ownerName: owner, tableName: table.name, name: parsed.data.name },
  };
  const existing = await prisma.savedView.findUnique({ where });
  if (!existing) {
    const count = await prisma.savedView.count({
      where: { ownerName: owner, tableName: table.name },
    });
    if (count >= MAX_SAVED_VIEWS_PER_TABLE) {
      throw new MasterDataError(
        'BAD_USER_INPUT',
        `You have ${MAX_SAVED_VIEWS_PER_TABLE} saved views of ${table.name}, the most there may be: delete one first.`,
      );
    }
  }
  try {
    const saved = await prisma.savedView.upsert({
      where,
      create: { ownerName: owner, tableName: table.name, name: parsed.data.name, ...data },
      update: { ...data, updatedAt: new Date() },
    });
    return asSavedView(saved, columns);
  } catch (error) {
    // Two saves of a new name at once: the second finds the first's row.
    if (postgresErrorCode(error) === '23505') return saveView(prisma, schema, owner, input);
    throw error;
  }
}

/** Deletes one of the owner's views; another's view, or none, is NOT_FOUND. */
export async function deleteSavedView(
  prisma: PrismaClient,
  owner: string,
  id: string,
): Promise<void> {
  const deleted = z.uuid().safeParse(id).success
    ? await prisma.savedView.deleteMany({ where: { id, ownerName: owner } })
    : { count: 0 };
  if (deleted.count === 0) {
    throw new MasterDataError('NOT_FOUND', 'You have no saved view with this id.');
  }
}
