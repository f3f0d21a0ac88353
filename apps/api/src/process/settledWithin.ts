import { setTimeout as sleep } from 'node:timers/promises';

const TIMED_OUT = Symbol('timed out');

/** What `run` came to within the time given: its value, or that it was still running. */
export type Settled<T> = { done: true; value: T } | { done: false };

/**
 * Waits for `run` at most `ms`; work still running then goes on unwatched. Rejects as `run`
 * does. The timer does not keep the process alive: a start or a stop that waits here can still
 * end the process.
 */
export async function settledWithin<T>(ms: number, run: () => Promise<T>): Promise<Settled<T>> {
  const outcome = await Promise.race([run(), sleep(ms, TIMED_OUT, { ref: false })]);
  return outcome === TIMED_OUT ? { done: false } : { done: true, value: outcome as T };
}
