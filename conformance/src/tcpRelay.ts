import { once } from 'node:events';
import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A TCP relay between the clients and the API, that breaks connections on cue: what a load
 * balancer, a proxy restart or a flaky network does to a client. It sees bytes, not requests,
 * which is what a client meets in the field too.
 */
export interface TcpRelay {
  /** The port clients connect to. */
  readonly port: number;
  /**
   * The next `times` requests whose bytes contain `marker` (an operation's name) reach the API,
   * but their answers never come back: the connection is cut when the API starts answering.
   * The API acted; the client does not know.
   */
  cutAnswersTo(marker: string, times: number): void;
  /** Closes the next `count` connections as soon as they open, before any byte reaches the API. */
  refuse(count: number): void;
  /** Cuts every open connection, live subscriptions included. */
  cutAll(): void;
  /** How many answers are still to be cut. */
  pendingCuts(): number;
  /** Forgets the cuts and refusals still to come. */
  reset(): void;
  close(): Promise<void>;
}

export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  const open = new Set<Socket>();
  const cuts: { marker: string; left: number }[] = [];
  let refusals = 0;

  const server = createServer((client) => {
    if (refusals > 0) {
      refusals -= 1;
      client.destroy();
      return;
    }
    const api = createConnection({ host: '127.0.0.1', port: targetPort });
    open.add(client);
    open.add(api);
    let cutNextAnswer = false;
    const end = () => {
      client.destroy();
      api.destroy();
      open.delete(client);
      open.delete(api);
    };
    client.on('data', (chunk: Buffer) => {
      const cut = cuts.find(({ marker, left }) => left > 0 && chunk.includes(marker));
      if (cut) {
        cut.left -= 1;
        cutNextAnswer = true;
      }
      api.write(chunk);
    });
    api.on('data', (chunk: Buffer) => {
      if (cutNextAnswer) return end();
      client.write(chunk);
    });
    client.on('close', end);
    api.on('close', end);
    client.on('error', end);
    api.on('error', end);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The relay has no port.');

  return {
    port: address.port,
    cutAnswersTo: (marker, times) => {
      cuts.push({ marker, left: times });
    },
    refuse: (count) => {
      refusals += count;
    },
    cutAll: () => {
      for (const socket of open) socket.destroy();
      open.clear();
    },
    pendingCuts: () => cuts.reduce((sum, { left }) => sum + left, 0),
    reset: () => {
      cuts.length = 0;
      refusals = 0;
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
