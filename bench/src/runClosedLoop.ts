import { performance } from 'node:perf_hooks';
import { type LatencySummary, summarizeLatencies } from './latency';

export interface LoadPlan {
  clients: number;
  warmupMs: number;
  durationMs: number;
}

export interface LoadResult {
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
 * Closed loop: `clients` workers each run `operation` back to back, first for the warm-up (not
 * counted), then for the measured duration.
 */
export async function runClosedLoop(plan: LoadPlan, operation: Operation): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let refused = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const measureFrom = start + plan.warmupMs;
  const end = measureFrom + plan.durationMs;

  async function client(index: number) {
    while (performance.now() < end) {
      const began = performance.now();
      let outcome: boolean | Error;
      try {
        outcome = await operation(index);
      } catch (error) {
        outcome = error as Error;
      }
      if (began < measureFrom) continue;
      latencies.push(performance.now() - began);
      if (outcome instanceof Error) {
        errors++;
        firstError ??= outcome.message;
      } else if (!outcome) {
        refused++;
      }
    }
  }

  await Promise.all(Array.from({ length: plan.clients }, (_, index) => client(index)));
  const seconds = plan.durationMs / 1000;
  return {
    clients: plan.clients,
    operations: latencies.length,
    opsPerSecond: latencies.length / seconds,
    errors,
    refused,
    latencyMs: summarizeLatencies(latencies),
    ...(firstError ? { firstError } : {}),
  };
}
