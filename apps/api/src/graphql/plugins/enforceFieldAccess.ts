import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { requireRole } from '../../auth/requireRole';
import type { ApiContext } from '../../context';
import { FIELD_ACCESS, fieldRequirement, type RootType } from '../fieldAccess';

type FieldResolver = GraphQLFieldResolver<unknown, ApiContext>;

/**
 * Makes every root field of `schema` (a subscription's `subscribe`) check FIELD_ACCESS before
 * its resolver runs: a caller below the field's role is refused as requireRole refuses, for
 * that field alone. A root field the map does not name stops the start.
 */
export function enforceFieldAccess(schema: GraphQLSchema): GraphQLSchema {
  const roots = {
    Query: schema.getQueryType(),
    Mutation: schema.getMutationType(),
    Subscription: schema.getSubscriptionType(),
  };
  for (const type of Object.keys(FIELD_ACCESS) as RootType[]) {
    for (const field of Object.values(roots[type]?.getFields() ?? {})) {
      const requirement = fieldRequirement(type, field.name);
      if (!requirement) throw new Error(`${type}.${field.name} is missing from FIELD_ACCESS.`);
      if (requirement === 'anyone' || requirement === 'anyoneWhateverTheCredentials') continue;
      const guarded = (run: FieldResolver): FieldResolver =>
        function checked(parent, args, context, info) {
          requireRole(context, requirement);
          return run(parent, args, context, info);
        };
      if (type === 'Subscription' && field.subscribe) field.subscribe = guarded(field.subscribe);
      else field.resolve = guarded(field.resolve ?? defaultFieldResolver);
    }
  }
  return schema;
}
