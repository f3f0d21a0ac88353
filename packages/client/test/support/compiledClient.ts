import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { testsUseBuild } from '@tablelock/test-support/testsUseBuild';

const CLIENT_DIR = new URL('../..', import.meta.url).pathname;

/** The `tablelock` command as installed: the launcher that loads the compiled dist/cli.js. */
export const TABLELOCK_BIN = join(CLIENT_DIR, 'bin/tablelock.js');

/**
 * Vitest global setup: compiles the client once per run, so tests run what ships; under
 * `test:all`, which has just built it, it uses that build (testsUseBuild).
 */
export default function buildClient(): void {
  if (testsUseBuild()) return;
  execFileSync(join(CLIENT_DIR, 'node_modules/.bin/tsup'), ['--silent'], {
    cwd: CLIENT_DIR,
    stdio: 'inherit',
  });
}
