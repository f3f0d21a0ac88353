export { MasterDataError, type MasterDataErrorCode } from './masterDataError';
export {
  type MasterRow,
  type RowPage,
  type RowQuery,
  type RowValues,
  readRows,
} from './readRows';
export { openRowExport, type RowExport } from './rowExport';
export type { FilterOperator, RowView, SortDirection } from './rowView';
export {
  type RowChangeKind,
  type RowChanges,
  type RowError,
  type RowErrorCode,
  type SaveResult,
  saveRows,
} from './saveRows';
export { planSortIndex, SORT_INDEX_MIN_ROWS, type SortIndexPlan } from './sortIndex';
export type {
  ColumnKind,
  MasterTable,
  TableColumn,
} from './tableColumns';
