import type { Attempt } from './postOperation';

const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 5_000;

/**
 * Calls `attempt` until it gives data, pausing between tries (doubling from 250 ms up to 5 s,
 * or as long as the API asked). Rejects with the last failure once the next try would begin
 * after `deadline` (epoch ms), and with the signal's reason when it aborts.
 */
export async function retryTransient<TResult>(
  attempt: () => Promise<Attempt<TResult>>,
  deadline: number,
  signal?: AbortSignal,
): Promise<TResult> {
  for (let tries = 0; ; tries++) {
    const outcome = await attempt();
    if ('data' in outcome) return outcome.data;
    // Spread out: clients that lost the API together do not all come back at the same moment.
    const backoff =
      Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** tries) * (0.5 + Math.random() / 2);
    const pause = Math.max(backoff, outcome.retryAfterMs ?? 0);
    if (Date.now() + pause > deadline) throw outcome.transient;
    await pauseFor(pause, signal);
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function pauseFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
