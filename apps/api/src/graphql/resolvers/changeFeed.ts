import { readChangeFeed } from '@tablelock/outbox';
import type { QueryResolvers } from '../generated/graphql';

export const changeFeed: QueryResolvers['changeFeed'] = (_parent, args, context) =>
  readChangeFeed(context.prisma, {
    after: args.after,
    first: args.first ?? 100,
    tables: args.tables,
    types: args.types,
  });
