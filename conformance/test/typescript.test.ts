import { conformanceSuite } from '../src/conformanceSuite';

const RUNNER = new URL('../runners/ts/runner.ts', import.meta.url).pathname;

conformanceSuite(async () => ({
  name: 'typescript',
  command: process.execPath,
  args: ['--import', 'tsx', RUNNER],
}));
