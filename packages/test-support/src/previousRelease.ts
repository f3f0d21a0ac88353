import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { previousRelease } from '../../../scripts/check-migrations-expand-only.mjs';

/** The repository this package is part of. */
const REPOSITORY = new URL('../../../', import.meta.url).pathname;

/** The previous release's tree with its API compiled, as the upgrade drill starts it. */
export interface PreviousRelease {
  version: string;
  commit: string;
  /** Its apps/api: `node dist/main.js` there is that release's API (startApiProcess's apiDir). */
  apiDir: string;
  /** Its prisma/migrations: what a database it ran on was migrated with. */
  migrationsDir: string;
  /** How long materialising it took now: 0 when the cache already held it. */
  builtInMs: number;
}

/**
 * The previous release (the newest one in releases.json before HEAD) checked out, its dependencies installed
 * from the local pnpm store (no network) and its API compiled, under
 * node_modules/.cache/tablelock-previous/<commit>: made once per commit, then reused. Only what
 * the API needs is installed and generated (Prisma's client, the GraphQL types, and the web app's
 * typed documents, which the API's warm-up sends since v0.6.0), not the web app's build.
 */
export async function buildPreviousRelease(): Promise<PreviousRelease> {
  const previous = previousRelease(REPOSITORY);
  if (!previous) {
    throw new Error(
      'releases.json names no release before HEAD: the upgrade drill needs one (README, "Upgrading").',
    );
  }
  const { version, commit } = previous;
  const tree = join(REPOSITORY, 'node_modules/.cache/tablelock-previous', commit);
  const apiDir = join(tree, 'apps/api');
  const migrationsDir = join(tree, 'prisma/migrations');
  // Written last: a tree without it is a build that was cut short, made again from scratch.
  const built = join(tree, '.tablelock-built');
  if (existsSync(built)) return { version, commit, apiDir, migrationsDir, builtInMs: 0 };

  const started = performance.now();
  await rm(tree, { recursive: true, force: true });
  await mkdir(tree, { recursive: true });
  await run('sh', ['-c', `git archive ${commit} | tar -x -C "${tree}"`], REPOSITORY);
  // The root for the Prisma CLI, apps/api and the packages it is built from; their build scripts
  // (embedded Postgres's, esbuild's) are not needed to compile it nor to run it on an external Postgres.
  const install = ['install', '--frozen-lockfile', '--ignore-scripts', '--filter', '.'];
  const packages = ['--filter', '@tablelock/api...', '--filter', '@tablelock/web'];
  await pnpm([...install, ...packages, '--offline'], tree).catch(
    // A dependency the release had that this checkout's install did not put in the store.
    () => pnpm([...install, ...packages, '--prefer-offline'], tree),
  );
  await run(join(tree, 'node_modules/.bin/prisma'), ['generate'], tree);
  await pnpm(['--filter', '@tablelock/api', '--filter', '@tablelock/web', 'generate'], tree);
  await pnpm(['--filter', '@tablelock/api', 'build'], tree);
  await writeFile(built, `${version}\n`);
  return {
    version,
    commit,
    apiDir,
    migrationsDir,
    builtInMs: Math.round(performance.now() - started),
  };
}

/** The pnpm that runs the tests (perhaps not on the PATH), else the one on the PATH. */
function pnpm(args: string[], cwd: string): Promise<string> {
  const execPath = process.env.npm_execpath;
  return execPath && /pnpm/.test(basename(execPath))
    ? run(process.execPath, [execPath, ...args], cwd)
    : run('pnpm', args, cwd);
}

/** Runs a command to its end; its standard output, or an error with all it printed. */
function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: string[] = [];
    const output: string[] = [];
    child.stdout.on('data', (chunk) => {
      stdout.push(String(chunk));
      output.push(String(chunk));
    });
    child.stderr.on('data', (chunk) => output.push(String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(stdout.join(''));
      else
        reject(
          new Error(
            `${command} ${args.join(' ')} (in ${cwd}) exited with ${code}:\n${output.join('')}`,
          ),
        );
    });
  });
}
