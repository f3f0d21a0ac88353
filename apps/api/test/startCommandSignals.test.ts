import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@tablelock/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  childrenOf,
  type EmbeddedApiProcess,
  isAlive,
  postmasterPid,
  startEmbeddedApi,
  stopProcess,
  waitFor,
  waitUntilServing,
} from './support/embeddedApiProcess';

// The start command as `npm start` runs it (scripts/with-deps.mjs, without its install step:
// the workspace is installed and built), in a process group of its own as a terminal's job is.
// Whatever signal reaches that group, the API and its Postgres must be gone soon after, and
// nothing of the group left. The tests share one cluster, made before them (the slow part).

const REPO_ROOT = new URL('../../../', import.meta.url).pathname;
const GONE_WITHIN_MS = 15_000;

let dataDir: string;
let embeddedPort: number;
/** The process groups the tests started: the start command's and its step's. */
const startedGroups: number[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tablelock-start-command-'));
  // Run as root, embedded Postgres runs as a user of its own, who must be able to enter.
  await chmod(dataDir, 0o755);
  embeddedPort = await freePort();
  const made: EmbeddedApiProcess[] = [];
  const api = startEmbeddedApi({ dataDir, port: await freePort(), embeddedPort }, made);
  await waitUntilServing(api, 120_000);
  await stopProcess(api, 'SIGINT');
  expect((await api.exited).code, api.output()).toBe(0);
}, 150_000);

afterEach(async () => {
  // A test that failed may leave its groups running: only the groups these tests started.
  for (const group of startedGroups.splice(0)) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // That group has ended already.
    }
  }
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** The pids of the processes in process group `group` (Linux: /proc), zombies left out. */
async function processesInGroup(group: number): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const members = await Promise.all(
    pids.map(async (pid) => {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
      // "pid (name) state ppid pgrp ...": read after the last ")".
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === group && state !== 'Z' && state !== 'X' ? [pid] : [];
    }),
  );
  return members.flat();
}

async function startCommand() {
  const port = await freePort();
  // Never an external database, whatever the caller's environment says.
  const { DATABASE_URL: _external, TABLELOCK_STOP_WITH_PID: _watched, ...env } = process.env;
  const child = spawn(process.execPath, ['scripts/with-deps.mjs', 'app:serve'], {
    cwd: REPO_ROOT,
    detached: true,
    env: {
      ...env,
      TABLELOCK_SKIP_INSTALL: '1',
      TABLELOCK_DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(embeddedPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid) startedGroups.push(child.pid);
  const chunks: string[] = [];
  child.stdout?.on('data', (chunk) => chunks.push(String(chunk)));
  child.stderr?.on('data', (chunk) => chunks.push(String(chunk)));
  // Ends when every process that holds the output (the app included) has ended.
  const outputEnded = once(child.stdout as NodeJS.ReadableStream, 'end');
  await waitFor('the app ready', 40_000, () =>
    fetch(`http://127.0.0.1:${port}/readyz`).then(
      (response) => response.ok,
      () => false,
    ),
  ).catch((error) => {
    throw new Error(`${error.message}:\n${chunks.join('')}`);
  });
  const [step] = await childrenOf(child.pid ?? 0);
  if (step) startedGroups.push(step);
  const postgres = await postmasterPid(join(dataDir, 'postgres'));
  if (!step || !postgres) throw new Error(`no app or Postgres found:\n${chunks.join('')}`);
  return {
    group: child.pid ?? 0,
    stepGroup: step,
    postgres,
    output: () => chunks.join(''),
    outputEnded,
  };
}

describe('the start command stopped through its process group', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGKILL'] as const) {
    it(`${signal}: the API and its Postgres stop cleanly, and nothing of the groups is left`, async () => {
      const started = await startCommand();
      process.kill(-started.group, signal);
      await waitFor(`the groups gone after ${signal}`, GONE_WITHIN_MS, async () => {
        const left = [
          ...(await processesInGroup(started.group)),
          ...(await processesInGroup(started.stepGroup)),
        ];
        return left.length === 0 && !isAlive(started.postgres);
      });
      await started.outputEnded;
      // The app stopped its servers itself and exited 0 ("stopped" comes just before the exit).
      expect(started.output()).toMatch(/"msg":"stopped"/);
      // A stop that was asked for is no failure: none of pnpm's red lines after it.
      if (signal !== 'SIGKILL') {
        expect(started.output()).not.toMatch(/ELIFECYCLE|ERR_PNPM|Command failed/);
      }
    });
  }
});
