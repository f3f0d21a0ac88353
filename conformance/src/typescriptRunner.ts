import type { RunnerCommand } from './runnerProcess';

const RUNNER = new URL('../runners/ts/runner.ts', import.meta.url).pathname;

/** The TypeScript client's runner: the client's sources, run by Node through tsx. */
export async function typescriptRunner(): Promise<RunnerCommand> {
  return { name: 'typescript', command: process.execPath, args: ['--import', 'tsx', RUNNER] };
}
