/**
 * How much an import may ask of the API and the database. Each is checked as the file
 * arrives, so a file over one is refused before it costs more than the limit.
 */
export interface ImportLimits {
  /** The file as sent, in bytes. */
  maxBytes: number;
  /** Rows besides the header. */
  maxRows: number;
  /** An XLSX part (a sheet, the shared strings) once inflated, in bytes. */
  maxInflatedBytes: number;
  /** Parts in an XLSX file. */
  maxZipEntries: number;
  /** Distinct texts in an XLSX file's shared strings. */
  maxSharedStrings: number;
  /** The characters of all shared strings together. */
  maxSharedStringChars: number;
  /** How deep elements may nest in an XLSX part (a sheet needs 6). */
  maxXmlDepth: number;
}

export const IMPORT_LIMITS: ImportLimits = {
  // A million rows of a wide table as CSV, or as an uncompressed XLSX of a narrow one.
  maxBytes: 256 * 1024 * 1024,
  maxRows: 1_000_000,
  maxInflatedBytes: 1024 * 1024 * 1024,
  maxZipEntries: 1000,
  maxSharedStrings: 2_000_000,
  maxSharedStringChars: 64 * 1024 * 1024,
  maxXmlDepth: 32,
};

/** The largest file an import takes, in bytes. */
export const MAX_IMPORT_BYTES = IMPORT_LIMITS.maxBytes;

/** The most rows (besides the header) an import takes. */
export const MAX_IMPORT_ROWS = IMPORT_LIMITS.maxRows;
