import { describe } from 'vitest';
import { conformanceSuite, failsOver } from '../src/conformanceSuite';
import { pythonRunner } from '../src/pythonRunner';
import { typescriptRunner } from '../src/typescriptRunner';

// Each client on a replica set of its own: a failover uses up a standby.
describe('typescript', () => {
  conformanceSuite(typescriptRunner, { playing: failsOver, replicated: true });
});
describe('python', () => {
  conformanceSuite(() => pythonRunner(false), { playing: failsOver, replicated: true });
});
describe('python-asyncio', () => {
  conformanceSuite(() => pythonRunner(true), { playing: failsOver, replicated: true });
});
