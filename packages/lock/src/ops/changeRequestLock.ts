import type { Queryable } from '@tablelock/db';
import { NEXT_FENCING_TOKEN, TABLE_LOCK } from '../sql/registryTables';

/**
 * A lock that waits with a change request: moved from its acquisition (`token`) to the request
 * under a new token, drawn as every grant's is, with no lease. The new token; null when the
 * lock is no longer under `token`.
 */
export async function moveLockToChangeRequest(
  db: Queryable,
  tableName: string,
  token: string,
): Promise<bigint | null> {
  const [moved] = await db.$queryRaw<{ token: bigint }[]>`
    UPDATE ${TABLE_LOCK}
    SET fencing_token = ${NEXT_FENCING_TOKEN}, lease_expires_at = NULL,
        version = version + 1, updated_at = now()
    WHERE table_name = ${tableName} AND fencing_token = ${token}::bigint
    RETURNING fencing_token AS token`;
  return moved?.token ?? null;
}

/** The lock of a change request goes back to its author under the request's token, leased again. */
export async function handLockBack(
  db: Queryable,
  tableName: string,
  token: string,
  leaseSeconds: number,
): Promise<void> {
  await db.$executeRaw`
    UPDATE ${TABLE_LOCK}
    SET lease_expires_at = now() + make_interval(secs => ${leaseSeconds}),
        last_active_at = now(), version = version + 1, updated_at = now()
    WHERE table_name = ${tableName} AND fencing_token = ${token}::bigint`;
}
