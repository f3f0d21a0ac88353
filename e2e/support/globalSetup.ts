import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testsUseBuild } from '@tablelock/test-support/testsUseBuild';
import { makeDataTemplate } from './dataTemplate';
import { makeScanRecord } from './scanRecord';
import { startApp } from './startApp';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const webDir = join(repoRoot, 'apps/web');
const apiDir = join(repoRoot, 'apps/api');

/**
 * Builds the web app and the API that each worker's app (support/appUnderTest.ts) runs, and
 * starts it once to make the data directory those apps start from (support/dataTemplate.ts),
 * and makes the run's record of scanned page states (support/scanRecord.ts).
 * `pnpm test:all` builds once before Vitest and Playwright and says so with
 * TABLELOCK_TESTS_USE_BUILD=1: then the build is used as it is. Answers the global teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!testsUseBuild()) build();
  const removeScanRecord = await makeScanRecord();
  const removeTemplate = await makeDataTemplate(async (dataDir) => {
    const app = await startApp({ dataDir });
    await app.stop();
  }).catch(async (error: unknown) => {
    await removeScanRecord();
    throw error;
  });
  return async () => {
    await removeTemplate();
    await removeScanRecord();
  };
}

function build(): void {
  execFileSync(join(webDir, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
    cwd: webDir,
    stdio: 'inherit',
  });
  execFileSync(join(apiDir, 'node_modules/.bin/tsup'), ['--silent'], {
    cwd: apiDir,
    stdio: 'inherit',
  });
}
