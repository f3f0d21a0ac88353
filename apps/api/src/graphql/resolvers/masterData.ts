import { runIdempotently } from '@tablelock/idempotency';
import {
  checkRows,
  readNewRowKeys,
  readRows,
  readRowsAsOf,
  saveRows,
} from '@tablelock/master-data';
import type {
  MutationResolvers,
  QueryResolvers,
  RowPageResolvers,
  RowResolvers,
} from '../generated/graphql';
import { callerOf } from './callerOf';
import { idempotentRequest } from './idempotentRequest';
import { securityAudit } from './securityAudit';

export const rows: QueryResolvers['rows'] = (_parent, args, context) => {
  const viewer = callerOf(context);
  const sortedBy = args.sort?.[0]?.column;
  if (sortedBy) {
    void context.sortIndexes.request(args.table, sortedBy, securityAudit(context, viewer));
  }
  const query = {
    offset: args.offset ?? 0,
    limit: args.limit ?? 100,
    sort: args.sort ?? [],
    filter: args.filter ?? [],
    after: args.after ?? null,
    before: args.before ?? null,
  };
  if (args.asOf == null) return readRows(context.prisma, context.masterSchema, args.table, query);
  return readRowsAsOf(context.prisma, context.masterSchema, args.table, {
    ...query,
    asOf: args.asOf,
    historyRetentionDays: context.historyRetentionDays,
  });
};

export const Row: RowResolvers = {
  scheduledChanges: (row) => row.scheduledChanges ?? [],
};

export const newRowKeys: QueryResolvers['newRowKeys'] = (_parent, args, context) =>
  readNewRowKeys(context.prisma, context.masterSchema, args.table, args.count);

export const RowPage: RowPageResolvers = {
  columns: (page) => page.table.columns,
  editable: (page) => page.table.primaryKey.length > 0,
};

export const saveRowsResolver: MutationResolvers['saveRows'] = (_parent, args, context) => {
  const caller = callerOf(context);
  return runIdempotently(
    context.prisma,
    idempotentRequest(caller, args, 'saveRows'),
    async (db) => {
      const result = await saveRows(db, {
        schema: context.masterSchema,
        tableName: args.table,
        holder: caller.name,
        token: args.token,
        changes: args.changes,
      });
      if (result.saved)
        context.metrics.recordSave(result.inserted + result.updated + result.deleted);
      return result;
    },
  );
};

export const checkRowsResolver: QueryResolvers['checkRows'] = (_parent, args, context) =>
  checkRows(context.prisma, {
    schema: context.masterSchema,
    tableName: args.table,
    holder: callerOf(context).name,
    token: args.token,
    changes: args.changes,
  });
