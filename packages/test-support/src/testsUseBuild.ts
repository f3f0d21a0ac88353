/**
 * `test:all` builds the apps once (`pnpm build`) and then sets TABLELOCK_TESTS_USE_BUILD=1, so
 * that each test runner's global setup uses that build instead of compiling the same source
 * again. Without it (a developer running one file) each global setup builds as before.
 */
export function testsUseBuild(): boolean {
  return process.env.TABLELOCK_TESTS_USE_BUILD === '1';
}
