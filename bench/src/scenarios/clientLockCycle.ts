import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { promisify } from 'node:util';
import { createTablelockClient } from '@tablelock/client';
import { benchPair } from '../benchDatabase';
import type { ClientLockCycleLevel } from '../report';
import {
  ratioOf,
  type Subject,
  sideBySideAtLevels,
  summarizeWindows,
  type WindowPlan,
} from '../sideBySide';

const INSTALL_WHEEL = new URL('../../../clients/python/scripts/install_wheel.sh', import.meta.url)
  .pathname;
const PYTHON_LOCK_CYCLE = new URL('../../python/lock_cycle.py', import.meta.url).pathname;
const LEASE_SECONDS = 60;
/** The client libraries' lock cycle is measured for a job, and for a fleet of them. */
export const CLIENT_LIBRARY_LEVELS = [1, 8];

/**
 * The TypeScript client's lock cycle: client `i` runs `withTableLock` on its own table (its FK
 * table locked with it) with an empty block, as a job that locks, writes and releases does,
 * renewals and the watch of the lock included.
 */
function typescriptClientSubject(apiUrl: string, apiKeys: string[]): Subject {
  return {
    async open(clients) {
      const tablelock = Array.from({ length: clients }, (_, i) =>
        createTablelockClient({ url: apiUrl, apiKey: apiKeys[i] ?? '' }),
      );
      return {
        operation: async (i) => {
          const client = tablelock[i];
          if (!client) throw new Error(`No client ${i}.`);
          return client.withTableLock(benchPair(i).child, async () => true, {
            leaseSeconds: LEASE_SECONDS,
          });
        },
        close: async () => {},
      };
    },
  };
}

/** The Python client installed from its wheel into a virtualenv of the bench's: its python. */
async function installPythonClient(): Promise<{ python: string; remove(): Promise<void> }> {
  const folder = await mkdtemp(join(tmpdir(), 'tablelock-bench-python-'));
  await promisify(execFile)('bash', [INSTALL_WHEEL, join(folder, 'venv')]);
  return {
    python: join(folder, 'venv/bin/python'),
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}

/**
 * The same cycle through the Python client (`with client.table_lock(...)`), one thread per
 * client in a Python process of its own (bench/python/lock_cycle.py), which runs each window.
 */
function pythonClientSubject(python: string, apiUrl: string, apiKeys: string[]): Subject {
  return {
    async open(clients) {
      const tables = Array.from({ length: clients }, (_, i) => benchPair(i).child);
      const child: ChildProcess = spawn(
        python,
        [
          PYTHON_LOCK_CYCLE,
          apiUrl,
          String(clients),
          JSON.stringify(apiKeys.slice(0, clients)),
          JSON.stringify(tables),
        ],
        { stdio: ['pipe', 'pipe', 'inherit'] },
      );
      if (!child.stdout || !child.stdin) throw new Error('The Python bench has no pipes.');
      const answers: Interface = createInterface({ input: child.stdout });
      const lines = answers[Symbol.asyncIterator]();
      const stdin = child.stdin;
      return {
        async runWindow(durationMs) {
          stdin.write(`${durationMs}\n`);
          const { value, done } = await lines.next();
          if (done)
            throw new Error(`The Python bench ended (${child.exitCode ?? child.signalCode}).`);
          return JSON.parse(value);
        },
        async close() {
          stdin.end();
          if (child.exitCode === null) await once(child, 'exit');
        },
      };
    },
  };
}

/**
 * The lock cycle through each client library, side by side at each of `levels`: the TypeScript
 * client in this process, the Python client (installed from its wheel) in its own.
 */
export async function measureClientLockCycle(
  apiUrl: string,
  apiKeys: string[],
  levels: number[],
  windows: WindowPlan,
): Promise<ClientLockCycleLevel[]> {
  const pythonClient = await installPythonClient();
  try {
    const subjects = {
      typescript: typescriptClientSubject(apiUrl, apiKeys),
      python: pythonClientSubject(pythonClient.python, apiUrl, apiKeys),
    };
    return (await sideBySideAtLevels(subjects, levels, windows)).map(
      ({ clients, windows: { typescript, python } }) => ({
        clients,
        typescript: summarizeWindows(typescript),
        python: summarizeWindows(python),
        pythonVs: { typescript: ratioOf(python, typescript) },
      }),
    );
  } finally {
    await pythonClient.remove();
  }
}
