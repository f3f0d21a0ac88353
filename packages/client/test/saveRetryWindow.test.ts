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

/** The real API, noting how long each save would be retried while the API cannot be reached. */
function notingSaveRetries(real: TablelockApi): { api: TablelockApi; saveRetryMs: number[] } {
  const saveRetryMs: number[] = [];
  return {
    saveRetryMs,
    api: {
      live: real.live,
      request: (document, variables, options) => {
        if (String(document) === String(saveRowsMutation)) saveRetryMs.push(options.retryForMs);
        return real.request(document, variables, options);
      },
    },
  };
}

const newCurrency = (code: string) => ({
  inserts: [{ values: { code, name: `Test ${code}`, minor_units: '2', active: 'true' } }],
});

describe('a save while the API cannot be reached', () => {
  // An API restarted on a busy machine took longer than 30 s to serve again: the save gave up
  // while the lock, with a minute of lease left, was still the caller's.
  it('is retried for as long as the lock can outlast the outage: until its lease would end', async () => {
    const noted = notingSaveRetries(connectToApi({ url: api.url, apiKey: etlKey }));
    await withTableLock(
      noted.api,
      'currencies',
      (lock) => lock.saveRows('currencies', newCurrency('RWA')),
      {
        leaseSeconds: 120,
      },
    );
    expect(noted.saveRetryMs).toHaveLength(1);
    expect(noted.saveRetryMs[0]).toBeGreaterThan(100_000);
    expect(noted.saveRetryMs[0]).toBeLessThanOrEqual(120_000);
  });

  it('is retried for 30 s when the lock has no lease, or little of it is left', async () => {
    const noted = notingSaveRetries(connectToApi({ url: api.url, apiKey: adminKey }));
    await withTableLock(
      noted.api,
      'currencies',
      (lock) => lock.saveRows('currencies', newCurrency('RWB')),
      {
        leaseSeconds: null,
      },
    );
    await withTableLock(
      noted.api,
      'currencies',
      (lock) => lock.saveRows('currencies', newCurrency('RWC')),
      {
        leaseSeconds: 10,
      },
    );
    expect(noted.saveRetryMs).toEqual([30_000, 30_000]);
  });
});
