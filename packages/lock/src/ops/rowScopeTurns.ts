import type { PrismaClient } from '@tablelock/db';

/** Per pool client: for each table, the end of the last change of its row scopes queued. */
const lastOf = new WeakMap<PrismaClient, Map<string, Promise<void>>>();

/**
 * Runs a change of `tableName`'s row scopes after this process's earlier ones of it, one at a
 * time. Every scope taken or ended writes its table's registry row: changes run together would
 * each read the row at one version, and all but one of their conditional writes would fail and
 * wait for the rows instead; one at a time, each reads what the one before it wrote. Correctness
 * does not rest on it: other processes race as before, and the conditional write decides.
 */
export function inRowScopeTurn<T>(
  db: PrismaClient,
  tableName: string,
  change: () => Promise<T>,
): Promise<T> {
  let tables = lastOf.get(db);
  if (!tables) {
    tables = new Map();
    lastOf.set(db, tables);
  }
  const before = tables.get(tableName) ?? Promise.resolve();
  const run = before.then(change);
  const ended = run.then(
    () => undefined,
    () => undefined,
  );
  tables.set(tableName, ended);
  void ended.then(() => {
    if (tables.get(tableName) === ended) tables.delete(tableName);
  });
  return run;
}
