import {
  deleteSavedView,
  listSavedViews,
  readGridLayout,
  readSavedView,
  saveGridLayout,
  saveView,
} from '@tablelock/master-data';
import type { MutationResolvers, QueryResolvers } from '../generated/graphql';
import { callerOf } from './callerOf';

export const gridLayout: QueryResolvers['gridLayout'] = (_parent, args, context) =>
  readGridLayout(context.prisma, context.masterSchema, callerOf(context).name, args.table);

export const savedViews: QueryResolvers['savedViews'] = (_parent, args, context) =>
  listSavedViews(context.prisma, context.masterSchema, callerOf(context).name, args.table);

export const savedView: QueryResolvers['savedView'] = (_parent, args, context) =>
  readSavedView(context.prisma, context.masterSchema, callerOf(context).name, args.id);

export const saveGridLayoutResolver: MutationResolvers['saveGridLayout'] = (
  _parent,
  args,
  context,
) =>
  saveGridLayout(
    context.prisma,
    context.masterSchema,
    callerOf(context).name,
    args.table,
    args.columns,
  );

export const saveViewResolver: MutationResolvers['saveView'] = (_parent, args, context) =>
  saveView(context.prisma, context.masterSchema, callerOf(context).name, args.view);

export const deleteSavedViewResolver: MutationResolvers['deleteSavedView'] = async (
  _parent,
  args,
  context,
) => {
  await deleteSavedView(context.prisma, callerOf(context).name, args.id);
  return true;
};
