import type { PrismaClient } from '@tablelock/db';
import { acquireTableLock, grantedOrConflict } from '@tablelock/lock';
import { submitChangeRequest } from '@tablelock/master-data';
import { MASTER_SCHEMA } from '@tablelock/test-support';

/** The database's clock: the one the schedulers keep. */
export async function databaseNow(prisma: PrismaClient): Promise<Date> {
  const [row] = await prisma.$queryRaw<{ now: Date }[]>`SELECT clock_timestamp() AS now`;
  if (!row) throw new Error('no clock');
  return row.now;
}

/**
 * `author`'s rename of row `id` of `table`, a change request scheduled `seconds` from now
 * (database clock), submitted under a lock the author takes for it: its id, state and time.
 */
export async function scheduleRename(
  prisma: PrismaClient,
  rename: { table: string; author: string; id: number; name: string; seconds: number },
) {
  const { table, author, id, name, seconds } = rename;
  const token = grantedOrConflict(
    await acquireTableLock(prisma, { tableName: table, editor: author, leaseSeconds: 600 }),
  ).fencingToken;
  const [row] = await prisma.$queryRawUnsafe<{ version: string }[]>(
    `SELECT xmin::text AS version FROM ${MASTER_SCHEMA}.${table} WHERE id = $1`,
    id,
  );
  const effectiveAt = new Date((await databaseNow(prisma)).getTime() + seconds * 1000);
  const submitted = await submitChangeRequest(prisma, {
    schema: MASTER_SCHEMA,
    tableName: table,
    author,
    token,
    changes: {
      updates: [{ key: { id: String(id) }, version: row?.version ?? '', values: { name } }],
    },
    importDryRunId: null,
    comment: null,
    keepEditing: false,
    submittedBy: author,
    submitters: [],
    effectiveAt,
  });
  if (!submitted.request) throw new Error(JSON.stringify(submitted.rowErrors));
  return { id: submitted.request.id, state: submitted.request.state, effectiveAt };
}
