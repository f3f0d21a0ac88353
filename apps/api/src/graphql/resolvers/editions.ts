import {
  createEdition,
  readEdition,
  readEditionRequests,
  readEditions,
} from '@tablelock/master-data';
import type {
  EditionFailedRowResolvers,
  EditionResolvers,
  MutationResolvers,
  QueryResolvers,
} from '../generated/graphql';
import { callerOf } from './callerOf';

export const editions: QueryResolvers['editions'] = (_parent, _args, context) =>
  readEditions(context.prisma);

export const edition: QueryResolvers['edition'] = (_parent, args, context) =>
  readEdition(context.prisma, args.id);

export const createEditionResolver: MutationResolvers['createEdition'] = (_parent, args, context) =>
  createEdition(context.prisma, {
    name: args.name,
    effectiveAt: args.effectiveAt,
    createdBy: callerOf(context).name,
  });

export const EditionFailedRow: EditionFailedRowResolvers = {
  table: (row) => row.tableName,
};

export const Edition: EditionResolvers = {
  requests: (edition, _args, context) => readEditionRequests(context.prisma, edition.id),
};
