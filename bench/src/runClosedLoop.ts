import { performance } from 'node:perf_hooks';
import { type LatencySummary, summarizeLatencies } from './latency';

/** One measured window of a closed loop. */
export interface WindowResult {
  clients: number;
  operations: number;
  opsPerSecond: number;
  errors: number;
  /** Operations that completed but did not get what they asked for (e.g. lock_result false). */
  refused: number;
  latencyMs: LatencySummary;
  firstError?: string;
}

/** One operation of a client: resolves true if it did what it asked, false if refused. */
export type Operation = (client: number) => Promise<boolean>;

/**
 * Closed loop: `clients` workers each run `operation` back to back for `durationMs`. An
 * operation still running at the end is waited for and counted, so windows run back to back
 * never overlap.
 */
export async function runClosedLoop(
  clients: number,
  durationMs: number,
  operation: Operation,
): Promise<WindowResult> {
  const latencies: number[] = [];
  let errors = 0;
  let refused = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const end = start + durationMs;

  async function client(index: number) {
    while (performance.now() < end) {
      const began = performance.now();
      let outcome: boolean | Error;
      try {
        outcome = await operation(index);
      } catch (error) {
        outcome = error as Error;
      }
      latencies.push(performance.now() - began);
      if (outcome instanceof Error) {
        errors++;
        firstError ??= outcome.message;
      } else if (!outcome) {
        refused++;
      }
    }
  }

  await Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  const seconds = (performance.now() - start) / 1000;
  return {
    clients,
    operations: latencies.length,
    opsPerSecond: latencies.length / seconds,
    errors,
    refused,
    latencyMs: summarizeLatencies(latencies),
    ...(firstError ? { firstError } : {}),
  };
}
