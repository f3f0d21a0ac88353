import type { Queryable } from '@tablelock/db';
import { changeTableLock } from './changeTableLock';

/**
 * Releases every lock `editor` holds (on logout), recorded with `reason`. A lock that changed
 * hands or was busy meanwhile is left alone (its lease ends it). Returns the tables released.
 */
export async function releaseLocksOf(
  db: Queryable,
  editor: string,
  reason: string,
): Promise<string[]> {
  const held = await db.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM tablelock.table_lock WHERE status = 'editing' AND editor = ${editor}`;
  const released: string[] = [];
  for (const { table_name: tableName } of held) {
    const result = await changeTableLock(
      db,
      { kind: 'release', tableName, namedFkTables: [], editor },
      { actor: editor, reason },
    ).catch(() => undefined);
    if (result?.written) released.push(tableName);
  }
  return released;
}
