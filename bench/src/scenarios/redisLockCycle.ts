import { randomUUID } from 'node:crypto';
import type { RedisClientType } from 'redis';
import type { Operation } from '../runClosedLoop';

// Deletes the key only if it still holds this holder's token (the usual safe release).
const COMPARE_AND_DELETE = `
  if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
  return 0`;

/**
 * A peer: the common Redis lock, `SET key token NX PX` to take it and a compare-and-delete
 * script to give it back, client `i` on its own connection and key. Not durable (Redis runs
 * without persistence here), no FK semantics, no history.
 */
export function redisLockCycle(connections: RedisClientType[]): Operation {
  return async (client) => {
    const redis = connections[client];
    if (!redis) throw new Error(`no Redis connection for client ${client}`);
    const key = `tablelock-bench:table-${client}`;
    const token = randomUUID();
    const taken = await redis.set(key, token, {
      condition: 'NX',
      expiration: { type: 'PX', value: 60_000 },
    });
    if (taken !== 'OK') return false;
    const released = await redis.eval(COMPARE_AND_DELETE, { keys: [key], arguments: [token] });
    return released === 1;
  };
}
