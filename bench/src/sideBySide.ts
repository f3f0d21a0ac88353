import { type Operation, runClosedLoop, type WindowResult } from './runClosedLoop';
import { type Spread, spreadOf } from './spread';

export interface WindowPlan {
  /** Measured windows per subject and client level. */
  windows: number;
  windowMs: number;
  /** Run once per subject and client level before its first window, not counted. */
  warmupMs: number;
}

/**
 * Full mode: figures to judge. Quick mode: a smoke test of every scenario (CI), judged on
 * correctness only.
 */
export const windowPlan = (quick: boolean): WindowPlan =>
  quick
    ? { windows: 1, windowMs: 500, warmupMs: 200 }
    : { windows: 3, windowMs: 5_000, warmupMs: 1_000 };

/**
 * Something opened once per client level, closed after, and measured in closed loops: of its
 * `operation` here, or run by itself (`runWindow`: a client in another process, say).
 */
export interface Subject {
  open(clients: number): Promise<OpenedSubject>;
}

export type OpenedSubject = { close(): Promise<void> } & (
  | { operation: Operation }
  | { runWindow(durationMs: number): Promise<WindowResult> }
);

/** One closed-loop window of an opened subject. */
function windowOf(opened: OpenedSubject, clients: number, durationMs: number) {
  return 'operation' in opened
    ? runClosedLoop(clients, durationMs, opened.operation)
    : opened.runWindow(durationMs);
}

/** A subject's figures at one client level, over every window. */
export interface ThroughputResult {
  clients: number;
  windows: number;
  opsPerSecond: Spread;
  latencyMs: { p50: Spread; p99: Spread };
  /** Over all windows. */
  operations: number;
  errors: number;
  refused: number;
  firstError?: string;
}

/**
 * Runs every subject at `clients` in turns: one window each, then the next round, so that a
 * load on the machine that comes and goes falls on all of them alike. Returns each subject's
 * windows in round order.
 */
export async function runSideBySide<Name extends string>(
  subjects: Record<Name, Subject>,
  clients: number,
  plan: WindowPlan,
): Promise<Record<Name, WindowResult[]>> {
  const names = Object.keys(subjects) as Name[];
  const open = new Map<Name, OpenedSubject>();
  const windows = Object.fromEntries(names.map((name) => [name, []])) as unknown as Record<
    Name,
    WindowResult[]
  >;
  try {
    for (const name of names) {
      const opened = await subjects[name].open(clients);
      open.set(name, opened);
      await windowOf(opened, clients, plan.warmupMs);
    }
    for (let round = 0; round < plan.windows; round++) {
      for (const name of names) {
        const opened = open.get(name);
        if (opened) windows[name].push(await windowOf(opened, clients, plan.windowMs));
      }
    }
  } finally {
    for (const opened of open.values()) await opened.close();
  }
  return windows;
}

/**
 * runSideBySide at each of `levels` in turn (one level's subjects closed before the next opens):
 * each level's windows by subject, for the caller to sum up.
 */
export async function sideBySideAtLevels<Name extends string>(
  subjects: Record<Name, Subject>,
  levels: readonly number[],
  plan: WindowPlan,
): Promise<{ clients: number; windows: Record<Name, WindowResult[]> }[]> {
  const measured = [];
  for (const clients of levels) {
    measured.push({ clients, windows: await runSideBySide(subjects, clients, plan) });
  }
  return measured;
}

/** The windows of one subject summed up: medians with their min–max, totals of counts. */
export function summarizeWindows(windows: WindowResult[]): ThroughputResult {
  const firstError = windows.find((window) => window.firstError)?.firstError;
  return {
    clients: windows[0]?.clients ?? 0,
    windows: windows.length,
    opsPerSecond: spreadOf(windows.map((window) => window.opsPerSecond)),
    latencyMs: {
      p50: spreadOf(windows.map((window) => window.latencyMs.p50)),
      p99: spreadOf(windows.map((window) => window.latencyMs.p99)),
    },
    operations: sum(windows.map((window) => window.operations)),
    errors: sum(windows.map((window) => window.errors)),
    refused: sum(windows.map((window) => window.refused)),
    ...(firstError ? { firstError } : {}),
  };
}

/** How one subject compares with another, window by window of the same round. */
export interface Ratio {
  /** ops/s of the subject over the peer's: above 1 is faster. */
  throughput: Spread;
  /** p50 latency of the subject over the peer's: below 1 is faster. */
  latencyP50: Spread;
}

export function ratioOf(subject: WindowResult[], peer: WindowResult[]): Ratio {
  const pairs = subject.flatMap((window, i) => {
    const other = peer[i];
    return other ? [[window, other] as const] : [];
  });
  return {
    throughput: spreadOf(pairs.map(([a, b]) => a.opsPerSecond / b.opsPerSecond)),
    latencyP50: spreadOf(pairs.map(([a, b]) => a.latencyMs.p50 / b.latencyMs.p50)),
  };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
