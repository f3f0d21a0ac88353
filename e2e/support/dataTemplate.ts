import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, chmod, mkdtemp, rm, watch } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// How the global setup tells the workers (which inherit its environment) where the template is.
const TEMPLATE_VARIABLE = 'TABLELOCK_E2E_DATA_TEMPLATE';

// Throwaway clusters: speed over crash safety, as on the Vitest runs' Postgres.
const THROWAWAY_SETTINGS = `
fsync = off
synchronous_commit = off
full_page_writes = off
`;

/** A new directory that embedded Postgres (run as its own user when we are root) may enter. */
export async function newDataDir(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tablelock-e2e-'));
  await chmod(dataDir, 0o755);
  return dataDir;
}

/**
 * Makes the data directory every app of this run starts from: `prepare` starts the app on it
 * once and stops it (initdb, migrations, demo data and demo users: seconds of work each worker
 * would repeat). Answers the removal, for the global teardown.
 */
export async function makeDataTemplate(
  prepare: (dataDir: string) => Promise<void>,
): Promise<() => Promise<void>> {
  const template = await newDataDir();
  await prepare(template);
  // A copy of a running cluster would start as one that crashed.
  await postgresStopped(join(template, 'postgres'));
  await appendFile(join(template, 'postgres/postgresql.conf'), THROWAWAY_SETTINGS);
  process.env[TEMPLATE_VARIABLE] = template;
  return () => rm(template, { recursive: true, force: true });
}

/** How long a template's Postgres may take to finish its shutdown after the app has gone. */
const POSTGRES_STOP_TIMEOUT_MS = 60_000;

/**
 * Resolves once the Postgres of the cluster in `clusterDir` has exited (its postmaster.pid is
 * gone). The app gives its embedded Postgres 3 s to stop and then exits: on a busy machine the
 * shutdown checkpoint takes longer and goes on after the app has gone.
 */
async function postgresStopped(clusterDir: string): Promise<void> {
  const lockFile = join(clusterDir, 'postmaster.pid');
  const signal = AbortSignal.timeout(POSTGRES_STOP_TIMEOUT_MS);
  try {
    // Watching first, so that a removal between the check and the watch is not missed.
    const changes = watch(clusterDir, { signal });
    if (!existsSync(lockFile)) return;
    for await (const _change of changes) if (!existsSync(lockFile)) return;
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  throw new Error(
    `The template's Postgres in ${clusterDir} did not stop within ${POSTGRES_STOP_TIMEOUT_MS / 1000} s.`,
  );
}

/**
 * Fills `dataDir` with a copy of this run's template, if the global setup made one (else the
 * app makes its cluster itself). `cp -a` keeps the files' owner: the Postgres user's.
 */
export async function copyDataTemplate(dataDir: string): Promise<void> {
  const template = process.env[TEMPLATE_VARIABLE];
  if (template) await promisify(execFile)('cp', ['-a', `${template}/.`, dataDir]);
}
