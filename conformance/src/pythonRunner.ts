import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RunnerCommand } from './runnerProcess';

const INSTALL_WHEEL = new URL('../../clients/python/scripts/install_wheel.sh', import.meta.url)
  .pathname;
const RUNNER = new URL('../runners/python/runner.py', import.meta.url).pathname;

/**
 * The Python client's runner, in a virtualenv of its own with the client installed from the wheel
 * it builds (never from the source tree). `asyncio`: the runner drives `AsyncClient` instead of
 * `Client`.
 */
export async function pythonRunner(asyncio: boolean): Promise<RunnerCommand> {
  const venv = join(await mkdtemp(join(tmpdir(), 'tablelock-conformance-')), 'venv');
  await promisify(execFile)('bash', [INSTALL_WHEEL, venv]);
  return {
    name: asyncio ? 'python-asyncio' : 'python',
    command: join(venv, 'bin/python'),
    args: [RUNNER],
    env: { PYTHONPATH: '', PYTHONUNBUFFERED: '1', TABLELOCK_RUNNER_ASYNC: asyncio ? '1' : '0' },
  };
}
