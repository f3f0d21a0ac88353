import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { EXIT } from './exitCodes';

/** A command running under the lock, with the terminal (stdin, stdout, stderr) it was given. */
export interface RunningCommand {
  /** Its exit status: its own code, or 128 + the signal's number when a signal ended it. */
  readonly exited: Promise<number>;
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM now, SIGKILL if it is still running after `graceMs`. */
  terminate(graceMs: number): void;
}

export function runCommand(
  program: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): RunningCommand {
  const child = spawn(program, args, { stdio: 'inherit', env });
  const exited = new Promise<number>((resolve) => {
    child.once('exit', (code, signal) =>
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0)),
    );
    // It never started: the shell's statuses for "not found" and "not executable".
    child.once('error', (error: NodeJS.ErrnoException) => {
      process.stderr.write(`tablelock: cannot run ${program}: ${error.message}\n`);
      resolve(error.code === 'ENOENT' ? EXIT.notFound : EXIT.notExecutable);
    });
  });
  const kill = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  return {
    exited,
    kill,
    terminate(graceMs) {
      kill('SIGTERM');
      const killer = setTimeout(() => kill('SIGKILL'), graceMs);
      void exited.finally(() => clearTimeout(killer));
    },
  };
}
