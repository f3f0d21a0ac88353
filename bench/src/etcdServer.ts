import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@tablelock/test-support';
import { Etcd3 } from 'etcd3';
import { type PeerServer, type SkippedPeer, startPeerServer } from './peerServer';

/**
 * A throwaway single-member etcd on free ports of 127.0.0.1, durable as etcd is by default: every
 * write is in its fsynced log before it answers, as a Postgres commit is.
 */
export async function startEtcdServer(): Promise<PeerServer<Etcd3> | SkippedPeer> {
  const [clientPort, peerPort] = [await freePort(), await freePort()];
  const clientUrl = `http://127.0.0.1:${clientPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  return startPeerServer({
    program: 'etcd',
    debianPackage: 'etcd-server',
    args: [
      '--name=bench',
      `--data-dir=${join(await mkdtemp(join(tmpdir(), 'tablelock-bench-etcd-')), 'data')}`,
      `--listen-client-urls=${clientUrl}`,
      `--advertise-client-urls=${clientUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=bench=${peerUrl}`,
      '--log-level=error',
    ],
    connect: async () => new Etcd3({ hosts: clientUrl }),
    probe: (client) => client.get('tablelock-bench:probe').string(),
    close: (client) => client.close(),
  });
}
