import { captionsOf } from '@tablelock/master-data';
import type { ColumnResolvers, RowPageResolvers } from '../generated/graphql';

export const columnCaptions: ColumnResolvers['captions'] = (column) => captionsOf(column.comment);

export const tableCaptions: RowPageResolvers['tableCaptions'] = (page) =>
  captionsOf(page.table.comment);
