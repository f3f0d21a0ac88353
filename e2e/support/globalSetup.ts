import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testsUseBuild } from '@tablelock/test-support/testsUseBuild';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const webDir = join(repoRoot, 'apps/web');
const apiDir = join(repoRoot, 'apps/api');

/**
 * Builds the web app and the API that each worker's app (support/appUnderTest.ts) runs.
 * `pnpm test:all` builds once before Vitest and Playwright and says so with
 * TABLELOCK_TESTS_USE_BUILD=1: then the build is used as it is.
 */
export default function globalSetup(): void {
  if (testsUseBuild()) return;
  execFileSync(join(webDir, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
    cwd: webDir,
    stdio: 'inherit',
  });
  execFileSync(join(apiDir, 'node_modules/.bin/tsup'), ['--silent'], {
    cwd: apiDir,
    stdio: 'inherit',
  });
}
