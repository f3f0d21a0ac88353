import type pg from 'pg';
import type { Operation } from '../runClosedLoop';

// Prepared once per connection, as the floor's statements are.
const TRY_LOCK = { name: 'peer_try_advisory_lock', text: 'SELECT pg_try_advisory_lock($1) AS ok' };
const UNLOCK = { name: 'peer_advisory_unlock', text: 'SELECT pg_advisory_unlock($1) AS ok' };

/**
 * A peer: Postgres's own session-level advisory lock on client `i`'s own key, taken and given
 * back on one pooled connection. What it does not give: FK semantics, an audit history, a lease,
 * a lock that outlives the connection, a fencing token.
 */
export function advisoryLockCycle(pool: pg.Pool): Operation {
  return async (client) => {
    const connection = await pool.connect();
    try {
      const key = [client + 1];
      const taken = await connection.query<{ ok: boolean }>({ ...TRY_LOCK, values: key });
      if (!taken.rows[0]?.ok) return false;
      const released = await connection.query<{ ok: boolean }>({ ...UNLOCK, values: key });
      return released.rows[0]?.ok === true;
    } finally {
      connection.release();
    }
  };
}
