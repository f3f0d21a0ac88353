import { isOutcomeUnknown } from '@tablelock/db';
import type { Logger } from 'pino';
import { isDatabaseUnreachable } from './databaseUnreachable';

/** How a background loop (the lock sweeper, the webhook delivery) tells of a failed round. */
export interface RoundFailureReport {
  logger: Logger;
  /** Told instead of a log line when the database cannot be reached; without it, logged. */
  onUnreachable?: (error: unknown) => void;
  /** Logged as a warning when an outage broke the connection at a commit. */
  cutOff: string;
  /** Logged for any other failure, at `failedLevel`. */
  failed: string;
  failedLevel: 'warn' | 'error';
}

/**
 * A database outage is said once, by the availability watch, not every round. A round whose
 * commit went unanswered may or may not have happened; the loop's next round does whatever is
 * left (its writes are conditional, its deliveries at least once), so that is no error either.
 */
export function reportRoundFailure(error: unknown, report: RoundFailureReport): void {
  if (report.onUnreachable && isDatabaseUnreachable(error)) report.onUnreachable(error);
  else if (isOutcomeUnknown(error)) report.logger.warn({ reason: String(error) }, report.cutOff);
  else report.logger[report.failedLevel]({ err: error }, report.failed);
}
