import type { Writable } from 'node:stream';
import type { MasterTable, RowValues } from '@tablelock/master-data';

/** A file of a table's rows, written as they come into a stream (an HTTP response). */
export interface RowFile {
  /** Appends rows, in the table's column order. */
  write(rows: RowValues[]): void;
  /** Finishes the file; the stream ends once all of it is written. */
  end(): Promise<void>;
}

export interface RowFileFormat {
  extension: string;
  contentType: string;
  /**
   * Starts the file, with a header row of the column names. Asynchronous so that a format may
   * load its library with its first file rather than with the process.
   */
  start(out: Writable, table: MasterTable): Promise<RowFile>;
}
