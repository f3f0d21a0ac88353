export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of latencies in milliseconds. */
export function summarizeLatencies(latencies: number[]): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (fraction: number) =>
    sorted.length === 0 ? 0 : (sorted[Math.ceil(fraction * sorted.length) - 1] ?? 0);
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}
