import { resetLockRegistry } from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { saveRowsMutation } from '../src/lockOperations';
import { connectToApi, type TablelockApi } from '../src/tablelockApi';
import { withTableLock } from '../src/withTableLock';
import { type ClientTestApi, startClientTestApi } from './support/clientTestApi';

let api: ClientTestApi;
let etlKey: string;
let adminKey: string;

beforeAll(async () => {
  api = await startClientTestApi();
  etlKey = await api.newKey('etl', 'editor');
  // Only an admin's key holds a lock without a lease.
  adminKey = await api.newKey('ops', 'admin');
});
afterAll(() => api?.stop());
beforeEach(() => resetLockRegistry(api.database.prisma));

const newCurrency = (code: string) => ({
  inserts: [{ values: { code, name: `Test ${code}`, minor_units: '2', active: 'true' } }],
});

/**
 * Saves a new currency under a lock of `leaseSeconds` through the real API, and answers how
 * long each save would have been retried while the API could not be reached.
 */
async function saveRetriesUnder(
  apiKey: string,
  leaseSeconds: number | null,
  code: string,
): Promise<number[]> {
  const real = connectToApi({ url: api.url, apiKey });
  const saveRetryMs: number[] = [];
  const noting: TablelockApi = {
    live: real.live,
    retryFor: real.retryFor,
    request: (document, variables, options) => {
      if (String(document) === String(saveRowsMutation)) saveRetryMs.push(options.retryForMs);
      return real.request(document, variables, options);
    },
  };
  await withTableLock(
    noting,
    'currencies',
    (lock) => lock.saveRows('currencies', newCurrency(code)),
    { leaseSeconds },
  );
  return saveRetryMs;
}

describe('a save while the API cannot be reached', () => {
  // An API restarted on a busy machine took longer than 30 s to serve again: the save gave up
  // while the lock, with a minute of lease left, was still the caller's.
  it('is retried for as long as the lock can outlast the outage: until its lease would end', async () => {
    const saveRetryMs = await saveRetriesUnder(etlKey, 120, 'RWA');
    expect(saveRetryMs).toHaveLength(1);
    expect(saveRetryMs[0]).toBeGreaterThan(100_000);
    expect(saveRetryMs[0]).toBeLessThanOrEqual(120_000);
  });

  it('is retried for 30 s when the lock has no lease, or little of it is left', async () => {
    expect([
      ...(await saveRetriesUnder(adminKey, null, 'RWB')),
      ...(await saveRetriesUnder(adminKey, 10, 'RWC')),
    ]).toEqual([30_000, 30_000]);
  });
});
