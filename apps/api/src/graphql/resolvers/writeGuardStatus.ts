import { readWriteGuardStatus } from '@tablelock/master-data';
import type { QueryResolvers } from '../generated/graphql';

export const writeGuardStatus: QueryResolvers['writeGuardStatus'] = async (
  _parent,
  _args,
  context,
) => {
  const status = await readWriteGuardStatus(
    context.prisma,
    context.masterSchema,
    context.writeGuardDefault,
  );
  return {
    ...status,
    unguardedTables: status.unguardedTables.map(({ tableName, ...table }) => ({
      table: tableName,
      ...table,
    })),
  };
};
