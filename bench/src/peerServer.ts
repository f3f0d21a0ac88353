import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';

export interface PeerServer<Client> {
  /** A new client of it (its owner closes it). */
  connect(): Promise<Client>;
  stop(): Promise<void>;
}

/** Why the bench runs without a peer (it says so in the report). */
export interface SkippedPeer {
  skipped: string;
}

interface PeerLaunch<Client> {
  /** The program's name, as Debian installs it, and its package. */
  program: string;
  debianPackage: string;
  args: string[];
  connect(): Promise<Client>;
  /** Succeeds once the server answers on `client`. */
  probe(client: Client): Promise<unknown>;
  close(client: Client): void | Promise<void>;
}

/**
 * Starts a throwaway peer server (Redis, etcd) for the bench, waiting until it answers, or says
 * why it cannot: not installed, or it did not start within 10 s.
 */
export async function startPeerServer<Client>(
  launch: PeerLaunch<Client>,
): Promise<PeerServer<Client> | SkippedPeer> {
  const binary = await findProgram(launch.program);
  if (!binary) {
    return {
      skipped: `${launch.program} is not installed (Debian: apt-get install ${launch.debianPackage})`,
    };
  }
  const child = spawn(binary, launch.args, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const probe = await launch.connect();
      try {
        await launch.probe(probe);
      } finally {
        await launch.close(probe);
      }
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill();
        return { skipped: `${launch.program} did not start: ${(error as Error).message}` };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    connect: launch.connect,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `program` where Debian puts it, or on PATH. */
async function findProgram(program: string): Promise<string | undefined> {
  const onPath = (process.env.PATH ?? '').split(':').map((dir) => `${dir}/${program}`);
  for (const candidate of [`/usr/bin/${program}`, `/usr/local/bin/${program}`, ...onPath]) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not there.
    }
  }
  return undefined;
}
