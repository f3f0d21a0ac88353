import { benchPair } from '../benchDatabase';
import { createGraphQLClient, LOCK_MUTATION, type LockData } from '../graphqlClient';
import { graphqlLockCycle } from './graphqlLockCycle';

export interface RoundTripsResult {
  /** Statements the API sent to Postgres per GraphQL acquire + release (the floor's: 4). */
  acquireRelease: number;
  /** Statements per acquisition refused because the table is being edited, its denial record included. */
  deniedAttempt: number;
}

/**
 * What one lock operation costs the API in round trips to Postgres, from its own counter
 * (`tablelock_db_statements_total` on /metrics): `repetitions` operations one after another,
 * the counter read before and after. Background work (the sweeper) may add a few hundredths.
 * Null for an API without the counter (an older version, see TABLELOCK_BENCH_API_DIR).
 */
export async function measureRoundTrips(
  baseUrl: string,
  apiKeys: { editors: string[]; holder: string; challenger: string },
  repetitions: number,
): Promise<RoundTripsResult | null> {
  if ((await statementsSent(baseUrl)) === undefined) return null;
  const api = createGraphQLClient(baseUrl, 1);
  try {
    const cycle = graphqlLockCycle(api, apiKeys.editors);
    const acquireRelease = await perOperation(baseUrl, repetitions, () => cycle(0));
    // The holder takes client 1's table; the challenger, asking for it, is refused every time.
    const { child } = benchPair(1);
    const ask = (apiKey: string, current: string, target: string) =>
      api.request<LockData>(apiKey, LOCK_MUTATION, {
        input: { table_name: child, current_status: current, target_status: target },
      });
    await ask(apiKeys.holder, 'normal', 'editing');
    try {
      const deniedAttempt = await perOperation(baseUrl, repetitions, async () => {
        const answer = await ask(apiKeys.challenger, 'normal', 'editing');
        return !answer.UpdateTableStatusWithLock.lock_result;
      });
      return { acquireRelease, deniedAttempt };
    } finally {
      await ask(apiKeys.holder, 'editing', 'normal');
    }
  } finally {
    await api.close();
  }
}

async function perOperation(
  baseUrl: string,
  repetitions: number,
  operation: () => Promise<boolean>,
): Promise<number> {
  await operation();
  const before = await statementsSent(baseUrl);
  for (let i = 0; i < repetitions; i++) {
    if (!(await operation())) throw new Error('a round-trip measurement did not go as planned');
  }
  const after = await statementsSent(baseUrl);
  return ((after ?? Number.NaN) - (before ?? Number.NaN)) / repetitions;
}

async function statementsSent(baseUrl: string): Promise<number | undefined> {
  const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
  const sent = /^tablelock_db_statements_total (\d+)/m.exec(metrics)?.[1];
  return sent === undefined ? undefined : Number(sent);
}
