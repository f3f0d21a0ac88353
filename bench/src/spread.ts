/** A figure measured in several windows: the median, and the lowest and highest window. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** The spread of `values` (one per window); all zero when there are none. */
export function spreadOf(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return { median: 0, min: 0, max: 0 };
  const middle = sorted.length / 2;
  const median = Number.isInteger(middle)
    ? ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
    : (sorted[Math.floor(middle)] ?? 0);
  return { median, min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0 };
}
