/** A database connection as `pg`'s Client and PoolClient are: anything that runs a query. */
export interface SqlConnection {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/**
 * Shows the write guard the lock in `db`'s current transaction: `tablelock.use_lock` for each
 * table, so that the job's own SQL writes of them pass. Call it after BEGIN, before writing.
 */
export async function useLockIn(
  db: SqlConnection,
  tokens: Readonly<Record<string, string>>,
): Promise<void> {
  for (const [table, token] of Object.entries(tokens)) {
    await db.query('SELECT tablelock.use_lock($1, $2)', [table, token]);
  }
}
