import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@tablelock/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  childrenOf,
  type EmbeddedApiProcess,
  hasExited,
  isAlive,
  logInAsAlice,
  logLines,
  runningPostgres,
  startEmbeddedApi,
  stopProcess,
  stopStartedProcesses,
  waitFor,
  waitUntilServing,
} from './support/embeddedApiProcess';

// The tests share one cluster, in order: the first start creates it with the demo data (the
// slow part); the others reuse it, as restarts do. Each test leaves no process of its running.

const STOP_WITHIN_MS = 15_000;
const FAIL_WITHIN_MS = 10_000;

let dataDir: string;
let clusterDir: string;
let embeddedPort: number;
const started: EmbeddedApiProcess[] = [];
/** Every Postgres the tests' API processes started: stopped after each test if still running. */
const postgresPids = new Set<number>();

function startApi(port = embeddedPort): Promise<EmbeddedApiProcess> {
  return freePort().then((httpPort) =>
    startEmbeddedApi({ dataDir, port: httpPort, embeddedPort: port }, started),
  );
}

async function serving(): Promise<{ api: EmbeddedApiProcess; postgres: number }> {
  const api = await startApi();
  await waitUntilServing(api);
  return { api, postgres: await runningPostgres(clusterDir, postgresPids) };
}

/** A start that fails: exits non-zero soon, with one fatal sentence and no stack trace. */
async function failedStart(api: EmbeddedApiProcess): Promise<string> {
  await waitFor('the API exited', FAIL_WITHIN_MS, () => hasExited(api));
  const output = api.output();
  expect((await api.exited).code, output).not.toBe(0);
  expect(output).not.toMatch(/"stack"|\n\s+at |triggerUncaughtException/);
  const fatal = logLines(api).filter((line) => line.level === 60);
  expect(fatal, output).toHaveLength(1);
  return fatal[0]?.msg ?? '';
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tablelock-lifecycle-'));
  // Run as root, embedded Postgres runs as a user of its own, who must be able to enter.
  await chmod(dataDir, 0o755);
  clusterDir = join(dataDir, 'postgres');
  embeddedPort = await freePort();
});

afterEach(() => stopStartedProcesses(started, postgresPids, clusterDir));

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('the API process: start and stop', () => {
  // The process is the compiled app: it finds the migrations and the schema files from the
  // bundle, and the packages that its bundled workspace code imports from apps/api.
  it('compiled, as npm start runs it: ready (/readyz 200) and answering GraphQL', async () => {
    const { api } = await serving();
    const readiness = await fetch(`${api.url}/readyz`);
    expect(readiness.status, await readiness.text()).toBe(200);
    expect(await logInAsAlice(api)).toEqual({ data: { login: { name: 'alice', role: 'editor' } } });
    await stopProcess(api, 'SIGTERM');
    expect(await api.exited, api.output()).toEqual({ code: 0, signal: null });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s: exits 0 within 15 s and stops its Postgres',
    async (signal) => {
      const { api, postgres } = await serving();
      api.child.kill(signal);
      await waitFor(`exit after ${signal}`, STOP_WITHIN_MS, () => hasExited(api));
      expect(await api.exited, api.output()).toEqual({ code: 0, signal: null });
      // It went all the way through its own shutdown, not cut short by another handler.
      expect(logLines(api).at(-1)?.msg).toBe('stopped');
      expect(isAlive(postgres)).toBe(false);
    },
  );

  it('killed with SIGKILL: its Postgres stops too', async () => {
    const { api, postgres } = await serving();
    await stopProcess(api, 'SIGKILL');
    await waitFor(
      'the Postgres of the killed API stopped',
      STOP_WITHIN_MS,
      () => !isAlive(postgres),
    );
  });

  it('a Postgres left running by a crashed run is stopped by the next start, which serves', async () => {
    const { api: crashed, postgres } = await serving();
    // A crash that takes every other child along (the watchdog included) orphans Postgres.
    for (const pid of await childrenOf(crashed.child.pid ?? 0)) {
      if (pid !== postgres) process.kill(pid, 'SIGKILL');
    }
    await stopProcess(crashed, 'SIGKILL');
    expect(isAlive(postgres)).toBe(true);

    const { api } = await serving();
    expect(isAlive(postgres)).toBe(false);
    expect(api.output()).toContain(
      `stopped the Postgres (pid ${postgres}) that an earlier run left running`,
    );
    expect(await logInAsAlice(api)).toEqual({ data: { login: { name: 'alice', role: 'editor' } } });
    await stopProcess(api, 'SIGTERM');
    expect(await api.exited).toEqual({ code: 0, signal: null });
  });

  it.each([
    ['a process that is gone', () => spawnSync(process.execPath, ['-e', '']).pid],
    ['a running process that is not Postgres', () => process.pid],
  ])('a stale postmaster.pid naming %s: starts and serves', async (_, stalePid) => {
    const pid = stalePid();
    await writeFile(
      join(clusterDir, 'postmaster.pid'),
      `${pid}\n${clusterDir}\n${Math.floor(Date.now() / 1000)}\n${embeddedPort}\n/tmp\n127.0.0.1\n`,
    );
    const { api } = await serving();
    expect(api.output()).toContain(`stale postmaster.pid (pid ${pid}`);
    expect(await logInAsAlice(api)).toMatchObject({ data: { login: { name: 'alice' } } });
    await stopProcess(api, 'SIGTERM');
    expect(await api.exited).toEqual({ code: 0, signal: null });
  });

  it('the embedded port in use: exits non-zero at once, naming the port and EMBEDDED_PG_PORT', async () => {
    const port = await freePort();
    const holder = createServer();
    holder.listen(port, '127.0.0.1');
    await once(holder, 'listening');
    try {
      const message = await failedStart(await startApi(port));
      expect(message).toContain(String(port));
      expect(message).toContain('EMBEDDED_PG_PORT');
    } finally {
      holder.close();
    }
  });

  it('Postgres killed under the running API: SIGTERM still exits 0 within 15 s', async () => {
    const { api, postgres } = await serving();
    process.kill(postgres, 'SIGKILL');
    await waitFor('the killed Postgres gone', STOP_WITHIN_MS, () => !isAlive(postgres));
    api.child.kill('SIGTERM');
    await waitFor('exit after SIGTERM', STOP_WITHIN_MS, () => hasExited(api));
    expect(await api.exited, api.output()).toEqual({ code: 0, signal: null });
  });

  it('a cluster of another Postgres major version: exits non-zero, naming both versions and the way out', async () => {
    const versionFile = join(clusterDir, 'PG_VERSION');
    const version = await readFile(versionFile, 'utf8');
    await writeFile(versionFile, '16\n');
    try {
      const message = await failedStart(await startApi());
      expect(message).toMatch(/PostgreSQL 16\b.*\b18\b/);
      expect(message).toContain('TABLELOCK_DATA_DIR');
    } finally {
      await writeFile(versionFile, version);
    }
  });

  it('a second start on a cluster in use refuses, and the running API keeps serving', async () => {
    const { api: running, postgres } = await serving();
    const message = await failedStart(await startApi());
    expect(message).toContain(`(pid ${running.child.pid})`);
    expect(message).toContain('TABLELOCK_DATA_DIR');
    expect(isAlive(postgres)).toBe(true);
    expect(await logInAsAlice(running)).toMatchObject({ data: { login: { name: 'alice' } } });
    await stopProcess(running, 'SIGTERM');
    expect(await running.exited).toEqual({ code: 0, signal: null });
  });
});
