import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@tablelock/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmbeddedApiProcess,
  hasExited,
  postmasterPid,
  runningPostgres,
  startEmbeddedApi,
  stopProcess,
  stopStartedProcesses,
  waitFor,
  waitUntilServing,
} from './support/embeddedApiProcess';
import { runOperatorCli } from './support/operatorCli';

// The operator command line run as README says, beside an app on the embedded Postgres: it
// works on that app's database, and never makes a cluster of its own.

let dataDir: string;
let clusterDir: string;
const started: EmbeddedApiProcess[] = [];
const postgresPids = new Set<number>();

/** Runs `node dist/cli.js …args` with `password` on standard input; its status and output. */
function cli(args: string[], env: NodeJS.ProcessEnv, password = '') {
  const { DATABASE_URL: _external, ...inherited } = process.env;
  return runOperatorCli(args, { ...inherited, LOG_LEVEL: 'warn', ...env }, password);
}

async function logIn(api: EmbeddedApiProcess, username: string, password: string) {
  const response = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query:
        'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { name role } }',
      variables: { u: username, p: password },
    }),
  });
  return response.json();
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tablelock-cli-'));
  // Run as root, embedded Postgres runs as a user of its own, who must be able to enter.
  await chmod(dataDir, 0o755);
  clusterDir = join(dataDir, 'postgres');
  // The first start makes the cluster (initdb, migrations, demo data): the slow part, and not
  // what these tests are about. On a busy machine it alone took most of a test's minute.
  const first = startEmbeddedApi(
    { dataDir, port: await freePort(), embeddedPort: await freePort() },
    started,
  );
  await waitUntilServing(first, 120_000);
  await stopProcess(first, 'SIGINT');
  expect((await first.exited).code, first.output()).toBe(0);
  // The app gives its Postgres 3 s to stop; a busy machine's shutdown checkpoint goes on longer.
  await waitFor('the first start’s Postgres stopped', 60_000, async () => {
    return (await postmasterPid(clusterDir)) === undefined;
  });
}, 210_000);

afterEach(() => stopStartedProcesses(started, postgresPids, clusterDir));

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('the operator command line beside a running app', () => {
  it('creates a user in the running app’s database, who can then sign in there', async () => {
    const embeddedPort = await freePort();
    const api = startEmbeddedApi({ dataDir, port: await freePort(), embeddedPort }, started);
    await waitUntilServing(api);
    await runningPostgres(clusterDir, postgresPids);

    // Another EMBEDDED_PG_PORT than the app's: the running app's own Postgres is used anyway.
    const created = await cli(
      ['create-user', 'dora', '--role', 'editor'],
      {
        TABLELOCK_DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(await freePort()),
      },
      'dora-passphrase',
    );
    expect(created, created.stderr).toMatchObject({ code: 0 });
    expect(hasExited(api), api.output()).toBe(false);
    expect(created.stdout).toContain('created user dora (editor)');
    expect(await logIn(api, 'dora', 'dora-passphrase')).toEqual({
      data: { login: { name: 'dora', role: 'editor' } },
    });
    await stopProcess(api, 'SIGTERM');
  });

  it('refuses, in one sentence, a data folder with no database, and creates none there', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'tablelock-cli-empty-'));
    // Open to Postgres's own user, as a data folder is: nothing but the command line stops it.
    await chmod(empty, 0o755);
    try {
      const refused = await cli(
        ['create-user', 'erin', '--role', 'viewer'],
        {
          TABLELOCK_DATA_DIR: empty,
          EMBEDDED_PG_PORT: String(await freePort()),
        },
        'erin-passphrase',
      );
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr.trim()).toBe(
        `error: No tablelock database in ${join(empty, 'postgres')}: start the app first (npm start), or run this command with the app's TABLELOCK_DATA_DIR or DATABASE_URL.`,
      );
      expect(await readdir(empty)).toEqual([]);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
