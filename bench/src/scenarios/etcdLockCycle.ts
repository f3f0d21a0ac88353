import type { Etcd3 } from 'etcd3';
import type { Operation } from '../runClosedLoop';

/**
 * A durable peer: etcd's lock as its client library takes it, a lease and a transaction that
 * puts the key only if nobody has it, released by revoking the lease. Client `i` on its own
 * client and key. Durable (etcd fsyncs its log before answering), no FK semantics, no history.
 */
export function etcdLockCycle(clients: Etcd3[]): Operation {
  return async (client) => {
    const etcd = clients[client];
    if (!etcd) throw new Error(`no etcd client for client ${client}`);
    const lock = etcd.lock(`tablelock-bench/table-${client}`).ttl(60);
    await lock.acquire();
    await lock.release();
    return true;
  };
}
