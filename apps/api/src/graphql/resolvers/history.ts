import {
  readChangeRows,
  readRowHistory,
  readTableChange,
  readTableChanges,
  revertChange,
} from '@tablelock/master-data';
import type {
  ChangeSetResolvers,
  MutationResolvers,
  QueryResolvers,
  RevertConflictResolvers,
  RowChangeResolvers,
} from '../generated/graphql';
import { callerOf } from './callerOf';
import { tokenFor } from './fencingTokens';

export const tableChanges: QueryResolvers['tableChanges'] = (_parent, args, context) => {
  return readTableChanges(context.prisma, args.table, {
    filter: args.filter,
    after: args.after,
    first: args.first ?? 20,
  });
};

export const tableChange: QueryResolvers['tableChange'] = (_parent, args, context) =>
  readTableChange(context.prisma, args.table, args.id);

export const rowHistory: QueryResolvers['rowHistory'] = (_parent, args, context) => {
  return readRowHistory(context.prisma, context.masterSchema, args.table, args.key, {
    after: args.after,
    first: args.first ?? 50,
  });
};

export const revertChangeResolver: MutationResolvers['revertChange'] = (_parent, args, context) => {
  const caller = callerOf(context);
  return revertChange(context.prisma, {
    schema: context.masterSchema,
    tableName: args.table,
    changeId: args.changeId,
    holder: caller.name,
    token: args.token,
    rows: args.rows ?? null,
    dryRun: args.dryRun !== false,
  });
};

export const ChangeSet: ChangeSetResolvers = {
  table: (change) => change.tableName,
  token: (change, _args, context) => tokenFor(context, change.token, [change.actor]),
  brokenScopes: (change, _args, context) =>
    callerOf(context).role === 'admin' ? change.brokenScopes : null,
  rows: (change, args, context) =>
    readChangeRows(context.prisma, change, { after: args.after, first: args.first ?? 100 }),
};

export const RowChange: RowChangeResolvers = { change: (row) => row.changeSet };

export const RevertConflict: RevertConflictResolvers = {
  laterChange: (conflict) => conflict.later,
};
