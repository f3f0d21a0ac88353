import { readTables, syncTableRegistry } from '@tablelock/lock';
import type { MutationResolvers, QueryResolvers, TableInfoResolvers } from '../generated/graphql';

export const tables: QueryResolvers['tables'] = async (_parent, { status }, { prisma }) => {
  const all = await readTables(prisma);
  return status ? all.filter((table) => table.status === status) : all;
};

export const table: QueryResolvers['table'] = async (_parent, { name }, { prisma }) =>
  (await readTables(prisma)).find((candidate) => candidate.name === name) ?? null;

export const TableInfo: TableInfoResolvers = {
  locked_by: (info) => info.lockedBy[0] ?? null,
};

export const syncTableRegistryResolver: MutationResolvers['syncTableRegistry'] = (
  _parent,
  _args,
  { prisma, masterSchema },
) => syncTableRegistry(prisma, masterSchema);
