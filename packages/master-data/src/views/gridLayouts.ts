import type { PrismaClient } from '@tablelock/db';
import { readMasterTable } from '../tableColumns';
import { type ColumnLayout, checkColumnLayout, storedColumnLayout } from './columnLayout';

/** The owner's layout of the table's grid; empty when they never changed it. */
export async function readGridLayout(
  prisma: PrismaClient,
  schema: string,
  owner: string,
  tableName: string,
): Promise<ColumnLayout[]> {
  const table = await readMasterTable(prisma, schema, tableName);
  const stored = await prisma.gridLayout.findUnique({
    where: { ownerName_tableName: { ownerName: owner, tableName } },
  });
  return stored ? storedColumnLayout(table, stored.columns) : [];
}

/** Keeps the owner's layout of the table's grid, in place of the one before. */
export async function saveGridLayout(
  prisma: PrismaClient,
  schema: string,
  owner: string,
  tableName: string,
  layout: unknown,
): Promise<ColumnLayout[]> {
  const table = await readMasterTable(prisma, schema, tableName);
  const columns = checkColumnLayout(table, layout);
  await prisma.gridLayout.upsert({
    where: { ownerName_tableName: { ownerName: owner, tableName } },
    create: { ownerName: owner, tableName, columns: columns as object[] },
    update: { columns: columns as object[], updatedAt: new Date() },
  });
  return columns;
}
