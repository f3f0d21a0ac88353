import { freePort } from '@tablelock/test-support';
import { createClient, type RedisClientType } from 'redis';
import { type PeerServer, type SkippedPeer, startPeerServer } from './peerServer';

/** A throwaway redis-server on a free port of 127.0.0.1, without persistence. */
export async function startRedisServer(): Promise<PeerServer<RedisClientType> | SkippedPeer> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  return startPeerServer({
    program: 'redis-server',
    debianPackage: 'redis-server',
    args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    async connect() {
      const client: RedisClientType = createClient({ url });
      client.on('error', () => {});
      await client.connect();
      return client;
    },
    probe: (client) => client.ping(),
    close: (client) => client.destroy(),
  });
}
