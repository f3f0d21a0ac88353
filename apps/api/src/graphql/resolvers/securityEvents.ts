import { readSecurityEvents } from '@tablelock/identity';
import type { QueryResolvers } from '../generated/graphql';

export const securityEvents: QueryResolvers['securityEvents'] = (_parent, args, context) => {
  return readSecurityEvents(context.prisma, args.filter ?? {}, {
    offset: args.offset ?? 0,
    limit: args.limit ?? 50,
    before: args.before ?? null,
    after: args.after ?? null,
  });
};
