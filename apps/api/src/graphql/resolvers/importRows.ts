import {
  importLabelColumn,
  labelImportRows,
  MasterDataError,
  readImportReport,
  readImportRows,
} from '@tablelock/master-data';
import { applyImportDryRun, importRows } from '../../imports/importRows';
import type {
  ImportReportResolvers,
  MutationResolvers,
  QueryResolvers,
} from '../generated/graphql';
import { callerOf } from './callerOf';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const importRowsResolver: MutationResolvers['importRows'] = async (
  _parent,
  args,
  context,
) => {
  const caller = callerOf(context);
  if (args.contentBase64.length % 4 !== 0 || !BASE64.test(args.contentBase64)) {
    throw new MasterDataError('IMPORT_BAD_FILE', 'contentBase64 is not base64.');
  }
  return importRows(context, {
    schema: context.masterSchema,
    tableName: args.table,
    holder: caller.name,
    token: args.token,
    fileName: args.fileName,
    format: args.format === 'XLSX' ? 'xlsx' : 'csv',
    content: Buffer.from(args.contentBase64, 'base64'),
    dryRun: args.dryRun !== false,
    ...(args.columnMapping
      ? {
          columnMapping: Object.fromEntries(
            args.columnMapping.map(({ fileColumn, tableColumn }) => [
              fileColumn,
              tableColumn ?? null,
            ]),
          ),
        }
      : {}),
  });
};

export const applyImportResolver: MutationResolvers['applyImport'] = (_parent, args, context) => {
  const caller = callerOf(context);
  return applyImportDryRun(context, {
    schema: context.masterSchema,
    id: args.id,
    holder: caller.name,
    token: args.token,
    skipRowsWithErrors: args.skipRowsWithErrors === true,
  });
};

export const importReport: QueryResolvers['importReport'] = (_parent, args, context) => {
  const caller = callerOf(context);
  return readImportReport(context.prisma, args.id, caller.name);
};

export const ImportReport: ImportReportResolvers = {
  table: (report) => report.tableName,
  labelColumn: (report, _args, context) =>
    importLabelColumn(context.prisma, context.masterSchema, report.tableName),
  rows: async (report, args, context) => {
    if (report.applied) return { total: 0, rows: [] };
    const caller = callerOf(context);
    const page = await readImportRows(context.prisma, report.id, caller.name, {
      outcomes: args.outcomes ?? [],
      offset: args.offset ?? 0,
      limit: args.limit ?? 100,
    });
    return {
      total: page.total,
      rows: await labelImportRows(
        context.prisma,
        context.masterSchema,
        report.tableName,
        page.rows,
      ),
    };
  },
};
