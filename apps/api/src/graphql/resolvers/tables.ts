import type { PrismaClient } from '@tablelock/db';
import {
  editBlockFor,
  forceReleaseRowScope,
  forceReleaseTableLock,
  LockError,
  mayTakeOver,
  readRowLockColumn,
  readTablePage,
  readTables,
  readTablesNamed,
  type TableInfo as TableInfoModel,
} from '@tablelock/lock';
import { editorRights } from '../../auth/editorRights';
import { syncMasterTables } from '../../writeGuard/syncMasterTables';
import type {
  MutationResolvers,
  QueryResolvers,
  RowLockResolvers,
  TableInfoResolvers,
} from '../generated/graphql';
import { callerOf } from './callerOf';
import { tokenFor } from './fencingTokens';
import { idempotentRequest } from './idempotentRequest';
import { requiredReason } from './requiredReason';
import { runLockOperation } from './runLockOperation';

/** One table's current state, or undefined if there is none of that name. */
async function findTable(prisma: PrismaClient, name: string): Promise<TableInfoModel | undefined> {
  const [info] = await readTablesNamed(prisma, [name]);
  return info;
}

/** One table's current state; TABLE_NOT_FOUND if there is none of that name. */
export async function tableInfo(prisma: PrismaClient, name: string): Promise<TableInfoModel> {
  const info = await findTable(prisma, name);
  if (!info) throw new LockError('TABLE_NOT_FOUND', `No master table is named ${name}.`);
  return info;
}

export const tables: QueryResolvers['tables'] = async (_parent, { status }, context) => {
  const all = await readTables(context.prisma);
  return status ? all.filter((table) => table.status === status) : all;
};

export const tablePage: QueryResolvers['tablePage'] = (_parent, args, context) => {
  return readTablePage(context.prisma, {
    search: args.search,
    status: args.status,
    offset: args.offset ?? 0,
    limit: args.limit ?? 50,
  });
};

export const tablesNamed: QueryResolvers['tablesNamed'] = (_parent, { names }, context) => {
  return readTablesNamed(context.prisma, names);
};

export const table: QueryResolvers['table'] = async (_parent, { name }, context) => {
  return (await findTable(context.prisma, name)) ?? null;
};

export const RowLock: RowLockResolvers = {
  token: (scope, _args, context) => tokenFor(context, scope.token, [scope.editor]),
};

export const TableInfo: TableInfoResolvers = {
  locked_by: (info) => info.lockedBy[0] ?? null,
  canTakeOver: (info, _args, context) => {
    const { principal } = context;
    if (!principal) return false;
    return mayTakeOver(info, { name: principal.name, rights: editorRights(principal) });
  },
  referencedTables: (info, _args, context) => readTablesNamed(context.prisma, info.references),
  rowLockColumn: (info, _args, context) =>
    readRowLockColumn(context.prisma, context.masterSchema, info.name),
  editBlock: (info, _args, { principal }) =>
    editBlockFor(principal && { name: principal.name, rights: editorRights(principal) }, info),
};

export const syncTableRegistryResolver: MutationResolvers['syncTableRegistry'] = (
  _parent,
  _args,
  context,
) => syncMasterTables(context.prisma, context, context.logger);

export const forceRelease: MutationResolvers['forceRelease'] = async (_parent, args, context) => {
  const admin = callerOf(context);
  const reason = requiredReason(args.reason);
  const { rowLock } = args;
  const released = await runLockOperation(
    context.prisma,
    idempotentRequest(admin, args, 'forceRelease'),
    async (db) =>
      rowLock
        ? {
            granted: await forceReleaseRowScope(db, {
              tableName: args.table,
              token: rowLock,
              actor: admin.name,
              reason,
            }),
          }
        : forceReleaseTableLock(db, { tableName: args.table, actor: admin.name, reason }),
  );
  context.logger.warn(
    { admin: admin.name, table: args.table, editor: released.editor, rowLock, reason },
    'lock force-released',
  );
  return tableInfo(context.prisma, args.table);
};
