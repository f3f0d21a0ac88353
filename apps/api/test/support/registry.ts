import type { PrismaClient, TableStatus } from '@tablelock/db';

export interface RegistryRow {
  tableName: string;
  status: TableStatus;
  editor: string | null;
  lockedBy: string[];
  references: string[];
  version: number;
}

/** The whole registry, read in one statement (one consistent snapshot). */
export async function readRegistry(prisma: PrismaClient): Promise<Map<string, RegistryRow>> {
  const rows = await prisma.tableLock.findMany({
    select: {
      tableName: true,
      status: true,
      editor: true,
      lockedBy: true,
      references: true,
      version: true,
    },
  });
  return new Map(rows.map((row) => [row.tableName, row]));
}
