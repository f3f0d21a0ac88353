/** Runs one statement in the transaction under way and returns its rows. */
export type RunStatement = (sql: string) => Promise<unknown[]>;

const RESTORE: Record<string, string> = {
  O: 'ENABLE TRIGGER',
  A: 'ENABLE ALWAYS TRIGGER',
  R: 'ENABLE REPLICA TRIGGER',
  D: 'DISABLE TRIGGER',
};

/**
 * Runs `work` with the user triggers of `tables` off, and puts each trigger back as it was
 * (ENABLE, ENABLE ALWAYS, …) afterwards: call it inside a transaction, which no other session
 * then sees with its triggers off (DDL is transactional). For data that stands for history
 * written long ago: `session_replication_role = replica` no longer skips tablelock's triggers,
 * which fire ALWAYS so that no other login can skip them. Needs the tables' owner (the bench's
 * superuser).
 */
export async function withoutTriggers<T>(
  run: RunStatement,
  tables: readonly string[],
  work: () => Promise<T>,
): Promise<T> {
  const triggers = (await run(
    `SELECT tgrelid::regclass::text AS "table", quote_ident(tgname) AS name, tgenabled::text AS state
     FROM pg_trigger
     WHERE NOT tgisinternal AND tgrelid IN (${tables.map((table) => `'${table}'::regclass`).join(', ')})`,
  )) as { table: string; name: string; state: string }[];
  for (const table of tables) await run(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
  const result = await work();
  for (const trigger of triggers) {
    await run(`ALTER TABLE ${trigger.table} ${RESTORE[trigger.state]} ${trigger.name}`);
  }
  return result;
}
