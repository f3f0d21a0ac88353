import type { RowErrorDetails } from '../errors/rowErrorDetails';
import type { RowValues } from '../readRows';

/** What applying a file row would do. */
export type ImportOutcome = 'create' | 'update' | 'unchanged' | 'error';

export type ImportErrorCode = 'INVALID_VALUE' | 'NOT_NULL' | 'FOREIGN_KEY' | 'DUPLICATE_KEY';

export interface ImportCellError {
  /** The column at fault; null when the row as a whole is (a duplicate key names the key). */
  column: string | null;
  code: ImportErrorCode;
  message: string;
  /** The facts, to say it in another language; dry runs kept from before have none. */
  details?: RowErrorDetails;
}

/** One row of a file, classified. */
export interface ImportRow {
  /** The row's number as a spreadsheet shows it (the header is row 1). */
  line: number;
  outcome: ImportOutcome;
  /** The primary key as the database reads it; null when it is not valid. */
  key: RowValues | null;
  /** The version (`xmin`) of the matched row the classification was based on. */
  version: string | null;
  /** The file's cells by column name, as written in the file. */
  values: RowValues;
  /** For an update: the columns whose values change. */
  changed: string[];
  /** For an update: the changed columns' current values. */
  previous: RowValues | null;
  errors: ImportCellError[];
}

export type ImportCounts = Record<ImportOutcome, number> & { total: number };

/** A dry run as kept: what the file would do, row by row. */
export interface ImportReport {
  id: string;
  tableName: string;
  fileName: string;
  /** The file's header, in its order. */
  columns: string[];
  counts: ImportCounts;
  /** True once written; a dry run is kept until then, and nothing after. */
  applied: boolean;
}
