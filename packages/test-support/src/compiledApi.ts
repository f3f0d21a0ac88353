import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { testsUseBuild } from './testsUseBuild';

/** apps/api: tests start the compiled API as its own process, never import it. */
export const API_DIR = new URL('../../../apps/api/', import.meta.url).pathname;

/** Node's arguments for the compiled app, as `npm start` runs it from API_DIR. */
export const COMPILED_MAIN = [
  '--enable-source-maps',
  '--import',
  './dist/tracing/register.js',
  'dist/main.js',
];

/**
 * Node's arguments for the compiled app of the apps/api at `apiDir`, as its `npm start` runs it:
 * a release from before traces (the upgrade drill's previous one) has no tracing bootstrap.
 */
export const compiledMainIn = (apiDir: string): string[] =>
  existsSync(join(apiDir, 'dist/tracing/register.js'))
    ? COMPILED_MAIN
    : ['--enable-source-maps', 'dist/main.js'];

/** Node's arguments for the compiled command line, as `pnpm cli` runs it from API_DIR. */
export const COMPILED_CLI = ['--enable-source-maps', 'dist/cli.js'];

/**
 * Vitest global setup: compiles the API once per run, before any test starts one of its
 * processes, so that those run what ships, built from the source under test. Under `test:all`,
 * which has just built it, it uses that build (testsUseBuild).
 */
export default function buildApi(): void {
  if (testsUseBuild()) return;
  execFileSync(join(API_DIR, 'node_modules/.bin/tsup'), ['--silent'], {
    cwd: API_DIR,
    stdio: 'inherit',
  });
}
