import type { Queryable } from '@tablelock/db';
import { TABLE_LOCK } from '../sql/registryTables';
import { changeTableLock } from './changeTableLock';

/**
 * Releases every lock `editor` holds, recorded as `actor`'s with `reason`: the user at logout,
 * or the admin who revoked the editor's API key or disabled it. A lock that changed hands
 * meanwhile is left alone. Returns the tables released.
 */
export async function releaseLocksOf(
  db: Queryable,
  request: { editor: string; actor: string; reason: string },
): Promise<string[]> {
  const { editor, actor, reason } = request;
  const held = await db.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM ${TABLE_LOCK} WHERE status = 'editing' AND editor = ${editor}`;
  const released: string[] = [];
  for (const { table_name: tableName } of held) {
    const result = await changeTableLock(
      db,
      { kind: 'release', tableName, namedFkTables: [], editor },
      { actor, reason },
    ).catch(() => undefined);
    if (result?.written) released.push(tableName);
  }
  return released;
}
