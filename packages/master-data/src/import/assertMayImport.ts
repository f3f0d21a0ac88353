import { inTransaction, type Queryable } from '@tablelock/db';
import { assertHoldsLock, parseFencingToken } from '@tablelock/lock';
import { MasterDataError } from '../masterDataError';
import { type MasterTable, readMasterTable } from '../tableColumns';

export interface ImportCaller {
  schema: string;
  tableName: string;
  /** Who imports: must be the lock's editor. */
  holder: string;
  /** The fencing token of the holder's acquisition. */
  token: string;
}

/**
 * Refuses an import that could not be written, before anything of its file is read: a table
 * that is not there or has no primary key, a caller who does not hold its lock. The check
 * is made again where the dry run is kept.
 */
export async function assertMayImport(db: Queryable, caller: ImportCaller): Promise<MasterTable> {
  const token = parseFencingToken(caller.token);
  const table = await readMasterTable(db, caller.schema, caller.tableName);
  if (table.primaryKey.length === 0) {
    throw new MasterDataError(
      'IMPORT_NO_PRIMARY_KEY',
      `${caller.tableName} has no primary key, so the rows of a file cannot be matched to its rows.`,
    );
  }
  await inTransaction(db, (tx) =>
    assertHoldsLock(tx, { tableName: caller.tableName, editor: caller.holder, token }),
  );
  return table;
}
