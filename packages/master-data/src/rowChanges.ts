import type { ViolationCode } from './errors/describeViolation';
import type { RowErrorDetails } from './errors/rowErrorDetails';
import type { RowValues } from './readRows';

export interface RowChanges {
  inserts?: { values: RowValues }[] | null;
  updates?: { key: RowValues; version: string; values: RowValues }[] | null;
  deletes?: { key: RowValues; version: string }[] | null;
}

export type RowChangeKind = 'insert' | 'update' | 'delete';

/** A conflict (changed since it was read), or what the database refused of the row. */
export type RowErrorCode = 'ROW_CONFLICT' | ViolationCode;

export interface RowError {
  change: RowChangeKind;
  /** Position of the change in its list (inserts, updates or deletes). */
  index: number;
  column: string | null;
  code: RowErrorCode;
  message: string;
  details: RowErrorDetails;
}

export interface SaveResult {
  saved: boolean;
  inserted: number;
  updated: number;
  deleted: number;
  rowErrors: RowError[];
  /**
   * Each updated row's version after the save, by its index in `updates`: what its next change
   * must name (a grid may edit it again before it has read it back).
   */
  updatedVersions: { index: number; version: string }[];
}
