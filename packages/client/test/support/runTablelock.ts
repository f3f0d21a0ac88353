import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { TABLELOCK_BIN } from './compiledClient';

/** A run of the compiled `tablelock` command line. */
export interface TablelockRun {
  readonly child: ChildProcess;
  /** Its exit status, or the signal that ended it, once its output is all read. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
}

/** Runs `tablelock <args>` against `url` with `apiKey` (through the environment, as documented). */
export function runTablelock(
  args: readonly string[],
  connection: { url: string; apiKey: string },
): TablelockRun {
  const child = spawn(process.execPath, [TABLELOCK_BIN, ...args], {
    env: { ...process.env, TABLELOCK_URL: connection.url, TABLELOCK_API_KEY: connection.apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout?.on('data', (chunk) => stdout.push(String(chunk)));
  child.stderr?.on('data', (chunk) => stderr.push(String(chunk)));
  return {
    child,
    exited: once(child, 'close').then(([code, signal]) => ({ code, signal })),
    stdout: () => stdout.join(''),
    stderr: () => stderr.join(''),
  };
}

/** Runs `tablelock <args>` to its end: its exit code and output. */
export async function tablelock(
  args: readonly string[],
  connection: { url: string; apiKey: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runTablelock(args, connection);
  const { code } = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
