import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';

const TIMED_OUT = Symbol('timed out');

/**
 * Runs one shutdown step and waits for it at most `ms`: a step that fails or hangs is logged
 * and left behind, so that the steps after it still run and the process gets to exit.
 */
export async function stopWithin(
  ms: number,
  step: string,
  run: () => Promise<unknown> | undefined,
  logger: Logger,
): Promise<void> {
  try {
    // The timer must not itself keep the process alive.
    const outcome = await Promise.race([run(), sleep(ms, TIMED_OUT, { ref: false })]);
    if (outcome === TIMED_OUT) logger.warn({ step, ms }, 'shutdown step timed out; going on');
  } catch (error) {
    logger.warn({ err: error, step }, 'shutdown step failed; going on');
  }
}
