import type { RunStatement } from './withoutTriggers';

/**
 * Runs `work` with the indexes of `table` that back no constraint dropped, and builds them
 * again afterwards from their own definitions: call it inside a transaction. For bulk data that
 * stands for history written long ago: ten million rows inserted into their indexes one by one
 * took a quarter of an hour on the shared bench machine; an index built once sorts them.
 */
export async function withIndexesBuiltAfter<T>(
  run: RunStatement,
  table: string,
  work: () => Promise<T>,
): Promise<T> {
  const indexes = (await run(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
     FROM pg_index AS i
     WHERE i.indrelid = '${table}'::regclass
       AND NOT EXISTS (SELECT 1 FROM pg_constraint AS c WHERE c.conindid = i.indexrelid)`,
  )) as { name: string; definition: string }[];
  for (const index of indexes) await run(`DROP INDEX ${index.name}`);
  const result = await work();
  for (const index of indexes) await run(index.definition);
  return result;
}
