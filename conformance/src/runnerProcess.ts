import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/** A runner's answer to one request (README, "Runner protocol"). */
export type RunnerAnswer =
  | { ok: true; value: unknown }
  | {
      ok: false;
      error: { code: string; type: string; message: string; extensions?: Record<string, unknown> };
    };

/** How a client's runner is started. */
export interface RunnerCommand {
  /** Its name in test titles: `typescript`, `python`, `python-asyncio`. */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

/** A client's runner, started once for every scenario: requests go one at a time. */
export interface RunnerProcess {
  readonly name: string;
  send(op: string, args: Record<string, unknown>): Promise<RunnerAnswer>;
  /** What the runner wrote to stderr lately: for the message of a failed step. */
  recentErrors(): string;
  stop(): Promise<void>;
}

/** Kept of a runner's stderr, for failure messages. */
const KEPT_ERROR_CHARS = 4_000;

export function startRunner(runner: RunnerCommand): RunnerProcess {
  const child: ChildProcess = spawn(runner.command, runner.args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...runner.env },
  });
  const waiting = new Map<number, (answer: RunnerAnswer) => void>();
  let errors = '';
  let nextId = 1;
  let exited: string | null = null;

  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString('utf8')).slice(-KEPT_ERROR_CHARS);
  });
  if (!child.stdout) throw new Error(`The ${runner.name} runner has no stdout.`);
  createInterface({ input: child.stdout }).on('line', (line) => {
    let answer: { id?: number } & RunnerAnswer;
    try {
      answer = JSON.parse(line);
    } catch {
      errors = `${errors}\n(stdout) ${line}`.slice(-KEPT_ERROR_CHARS);
      return;
    }
    if (answer.id === undefined) return;
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  child.on('exit', (code, signal) => {
    exited = `the ${runner.name} runner exited (${signal ?? code})`;
    for (const settle of waiting.values()) {
      settle({
        ok: false,
        error: { code: 'RUNNER_EXITED', type: 'RunnerExited', message: exited },
      });
    }
    waiting.clear();
  });

  return {
    name: runner.name,
    send(op, args) {
      if (exited) throw new Error(`${exited}: ${errors}`);
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin?.write(`${JSON.stringify({ id, op, args })}\n`);
      });
    },
    recentErrors: () => errors,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin?.end();
      const ended = once(child, 'exit');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await ended;
      clearTimeout(killer);
    },
  };
}
