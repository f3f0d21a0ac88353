import { poll, resetLockRegistry } from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { connectToApi, type TablelockApi } from '../src/tablelockApi';
import { withTableLock } from '../src/withTableLock';
import { type ClientTestApi, startClientTestApi } from './support/clientTestApi';
import { eventsOf, lockOf } from './support/lockRecords';

let api: ClientTestApi;
let etlKey: string;

beforeAll(async () => {
  api = await startClientTestApi();
  etlKey = await api.newKey('etl', 'editor');
});
afterAll(() => api?.stop());
beforeEach(() => resetLockRegistry(api.database.prisma));

/**
 * The API over a slow network: every answer reaches the client only once `deliver` is called.
 * A request whose signal aborts before then is cut off, as a socket closed under it would be,
 * unless it asked to hear its answer out.
 */
function slowAnswers(real: TablelockApi): { api: TablelockApi; deliver: () => void } {
  let deliver = () => {};
  const delivered = new Promise<void>((resolve) => {
    deliver = resolve;
  });
  return {
    deliver: () => deliver(),
    api: {
      live: real.live,
      retryFor: real.retryFor,
      request: async (document, variables, options) => {
        const answer = await real.request(document, variables, options);
        const { signal } = options;
        if (!signal || options.letAnswerArrive) {
          await delivered;
          return answer;
        }
        const cutOff = new Promise<never>((_, reject) => {
          if (signal.aborted) reject(signal.reason);
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
        return Promise.race([delivered.then(() => answer), cutOff]);
      },
    },
  };
}

it('a stop while the grant is on its way runs nothing and gives the lock back at once', async () => {
  const network = slowAnswers(connectToApi({ url: api.url, apiKey: etlKey }));
  const stop = new AbortController();
  let ran = false;
  const outcome = withTableLock(
    network.api,
    'regions',
    async () => {
      ran = true;
    },
    { signal: stop.signal },
  ).then(
    () => 'returned',
    (error: unknown) => error,
  );
  // The grant is in the database; its answer has not reached the client yet.
  const { token } = await poll('the grant in the database', 10_000, async () => {
    const lock = await lockOf(api.database, 'regions');
    return lock.status === 'editing' ? lock : undefined;
  });
  stop.abort(new DOMException('Stopped.', 'AbortError'));
  network.deliver();

  expect(await outcome).toMatchObject({ name: 'AbortError' });
  expect(ran).toBe(false);
  expect(await lockOf(api.database, 'regions')).toMatchObject({ status: 'normal' });
  expect((await eventsOf(api.database, 'regions')).at(-1)).toMatchObject({
    action: 'release',
    actor: 'key:etl',
    token,
  });
});
