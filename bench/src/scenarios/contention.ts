import { performance } from 'node:perf_hooks';
import {
  createGraphQLClient,
  type GraphQLClient,
  LOCK_MUTATION,
  type LockData,
} from '../graphqlClient';
import { type LatencySummary, summarizeLatencies } from '../latency';

export interface ContentionResult {
  clients: number;
  rounds: number;
  /** Winners of each round; every entry must be 1. */
  winnersPerRound: number[];
  /** Time from the first request of a round to its last answer, per round, in ms. */
  roundMs: LatencySummary;
  errors: number;
  firstError?: string;
}

const TABLE = 'products';

/**
 * `clients` clients, each on its own connection, race for one table with FKs at once; the
 * winner then releases it. Repeated `rounds` times after one uncounted warm-up round.
 */
export async function runContention(
  baseUrl: string,
  racerKeys: string[],
  rounds: number,
): Promise<ContentionResult> {
  const clients = racerKeys.length;
  const api = createGraphQLClient(baseUrl, clients);
  const winnersPerRound: number[] = [];
  const roundTimes: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  try {
    for (let round = -1; round < rounds; round++) {
      const began = performance.now();
      const answers = await Promise.allSettled(
        racerKeys.map((apiKey) =>
          api.request<LockData>(apiKey, LOCK_MUTATION, {
            input: { table_name: TABLE, current_status: 'normal', target_status: 'editing' },
          }),
        ),
      );
      const elapsed = performance.now() - began;
      const winners = racerKeys.filter((_, i) => {
        const answer = answers[i];
        return answer?.status === 'fulfilled' && answer.value.UpdateTableStatusWithLock.lock_result;
      });
      for (const winner of winners) await releaseUntilDone(api, winner);
      if (round < 0) continue;
      for (const answer of answers) {
        if (answer.status === 'rejected') {
          errors++;
          firstError ??= String(answer.reason);
        }
      }
      winnersPerRound.push(winners.length);
      roundTimes.push(elapsed);
    }
  } finally {
    await api.close();
  }
  return {
    clients,
    rounds,
    winnersPerRound,
    roundMs: summarizeLatencies(roundTimes),
    errors,
    ...(firstError ? { firstError } : {}),
  };
}

// A release answers false while another transaction holds a row it needs: try again then.
async function releaseUntilDone(api: GraphQLClient, apiKey: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const data = await api.request<LockData>(apiKey, LOCK_MUTATION, {
      input: { table_name: TABLE, current_status: 'editing', target_status: 'normal' },
    });
    if (data.UpdateTableStatusWithLock.lock_result) return;
  }
  throw new Error(`the winner could not release ${TABLE}`);
}
