import { MasterDataError } from '../masterDataError';
import type { ImportLimits } from './importLimits';

/** IMPORT_TOO_LARGE: the file is over one of the limits, named in `what`. */
export const tooLarge = (what: string, limits: ImportLimits) =>
  new MasterDataError(
    'IMPORT_TOO_LARGE',
    `The file is too large: ${what}. An import takes at most ${limits.maxRows.toLocaleString('en')} rows and ${limits.maxBytes / 1024 / 1024} MB; split it.`,
    { maxRows: limits.maxRows, maxBytes: limits.maxBytes },
  );

/** IMPORT_BAD_FILE: the file is not a table this import can read. */
export const badFile = (why: string, details?: Record<string, unknown>) =>
  new MasterDataError('IMPORT_BAD_FILE', why, details);
