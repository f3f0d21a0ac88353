import { readReferenceLabels, readReferenceOptions } from '@tablelock/master-data';
import type { QueryResolvers, RowPageResolvers } from '../generated/graphql';

export const referenceOptions: QueryResolvers['referenceOptions'] = async (
  _parent,
  args,
  context,
) => {
  const page = await readReferenceOptions(
    context.prisma,
    context.masterSchema,
    args.table,
    args.column,
    { search: args.search, first: args.first ?? 20, after: args.after },
  );
  return {
    table: page.target.table.name,
    keyColumn: page.target.key.name,
    labelColumn: page.target.label?.name ?? null,
    options: page.options,
    endCursor: page.endCursor,
  };
};

export const referenceLabels: RowPageResolvers['referenceLabels'] = (page, _args, context) =>
  readReferenceLabels(context.prisma, context.masterSchema, page.table, page.rows);
