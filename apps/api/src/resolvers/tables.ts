import { forceReleaseTableLock, LockError, readTables, syncTableRegistry } from '@tablelock/lock';
import { requireRole } from '../auth/requireRole';
import type { MutationResolvers, QueryResolvers, TableInfoResolvers } from '../generated/graphql';

export const tables: QueryResolvers['tables'] = async (_parent, { status }, context) => {
  requireRole(context, 'viewer');
  const all = await readTables(context.prisma);
  return status ? all.filter((table) => table.status === status) : all;
};

export const table: QueryResolvers['table'] = async (_parent, { name }, context) => {
  requireRole(context, 'viewer');
  return (await readTables(context.prisma)).find((candidate) => candidate.name === name) ?? null;
};

export const TableInfo: TableInfoResolvers = {
  locked_by: (info) => info.lockedBy[0] ?? null,
};

export const syncTableRegistryResolver: MutationResolvers['syncTableRegistry'] = (
  _parent,
  _args,
  context,
) => {
  requireRole(context, 'admin');
  return syncTableRegistry(context.prisma, context.masterSchema);
};

const MAX_REASON_LENGTH = 500;

export const forceRelease: MutationResolvers['forceRelease'] = async (
  _parent,
  { table: tableName, reason },
  context,
) => {
  const admin = requireRole(context, 'admin');
  const why = reason.trim();
  if (why.length === 0 || why.length > MAX_REASON_LENGTH) {
    throw new LockError(
      'BAD_USER_INPUT',
      `reason is required (1–${MAX_REASON_LENGTH} characters).`,
    );
  }
  const released = await forceReleaseTableLock(context.prisma, tableName);
  context.logger.warn(
    { admin: admin.name, table: tableName, editor: released.editor, reason: why },
    'lock force-released',
  );
  const info = (await readTables(context.prisma)).find((candidate) => candidate.name === tableName);
  if (!info) throw new LockError('TABLE_NOT_FOUND', `No master table is named ${tableName}.`);
  return info;
};
