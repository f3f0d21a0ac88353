/** The largest file an import takes, in bytes. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

/** The most rows (besides the header) an import takes. */
export const MAX_IMPORT_ROWS = 100_000;
