import type { Logger } from 'pino';
import { settledWithin } from './settledWithin';

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
    const settled = await settledWithin(ms, async () => run());
    if (!settled.done) logger.warn({ step, ms }, 'shutdown step timed out; going on');
  } catch (error) {
    logger.warn({ err: error, step }, 'shutdown step failed; going on');
  }
}
