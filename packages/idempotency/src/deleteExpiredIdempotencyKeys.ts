import type { Queryable } from '@tablelock/db';
import { IDEMPOTENCY_RETENTION_HOURS } from './runIdempotently';

/** Deletes idempotency keys past their retention; returns how many. */
export async function deleteExpiredIdempotencyKeys(db: Queryable): Promise<number> {
  return db.$executeRaw`
    DELETE FROM tablelock.idempotency_key
    WHERE created_at < now() - make_interval(hours => ${IDEMPOTENCY_RETENTION_HOURS + 1})`;
}
