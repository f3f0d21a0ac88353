import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { freePort } from '@tablelock/test-support';
import { createClient, type RedisClientType } from 'redis';

/** Debian's redis-server package; other places are looked up on PATH. */
const CANDIDATES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'];

export interface RedisServer {
  /** A new connection to it (its owner closes it). */
  connect(): Promise<RedisClientType>;
  stop(): Promise<void>;
}

/**
 * Starts a throwaway redis-server on a free port of 127.0.0.1, without persistence, or answers
 * why it cannot (the bench then skips the Redis peer and says so).
 */
export async function startRedisServer(): Promise<RedisServer | { skipped: string }> {
  const binary = await findRedisServer();
  if (!binary) {
    return { skipped: 'redis-server is not installed (Debian: apt-get install redis-server)' };
  }
  const port = await freePort();
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `redis://127.0.0.1:${port}`;
  const connect = async () => {
    const client: RedisClientType = createClient({ url });
    client.on('error', () => {});
    await client.connect();
    return client;
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const probe = await connect();
      await probe.ping();
      probe.destroy();
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill();
        return { skipped: `redis-server did not start: ${(error as Error).message}` };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    connect,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function findRedisServer(): Promise<string | undefined> {
  const onPath = (process.env.PATH ?? '').split(':').map((dir) => `${dir}/redis-server`);
  for (const candidate of [...CANDIDATES, ...onPath]) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not there.
    }
  }
  return undefined;
}
