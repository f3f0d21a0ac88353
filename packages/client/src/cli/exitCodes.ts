import { isTablelockError } from '../TablelockError';
import { UsageError } from './UsageError';

/**
 * What `tablelock` exits with besides the command's own status (from sysexits.h where one fits).
 * The README lists them; a command may exit with the same numbers itself.
 */
export const EXIT = {
  ok: 0,
  /** The API refused for another reason (e.g. force-releasing a table nobody edits). */
  refused: 1,
  /**
   * EX_USAGE: wrong arguments, an unknown or partitioned table, a missing, wrong or revoked key,
   * no permission.
   */
  usage: 64,
  /** EX_UNAVAILABLE: the API could not be reached, or was unavailable, through every retry. */
  unavailable: 69,
  /** EX_SOFTWARE: the API failed (INTERNAL_SERVER_ERROR) or answered what the client cannot read. */
  software: 70,
  /**
   * EX_TEMPFAIL: the lock could not be had (busy, or not free within --wait), or the key may not
   * wait in line now (it waits for the table already, or holds as many places as it may).
   */
  lockBusy: 75,
  /** The lock was lost while the command ran: the command was stopped. */
  lockLost: 76,
  /** The command could not be run (as shells say): 126 not executable, 127 not found. */
  notExecutable: 126,
  notFound: 127,
} as const;

/** The exit status for a failure of the command line itself. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (!isTablelockError(error)) return EXIT.software;
  switch (error.code) {
    case 'LOCK_CONFLICT':
    case 'LOCK_WAIT_TIMEOUT':
    case 'ALREADY_IN_LINE':
    case 'TOO_MANY_WAITERS':
      return EXIT.lockBusy;
    case 'LOCK_LOST':
      return EXIT.lockLost;
    case 'BAD_USER_INPUT':
    case 'TABLE_NOT_FOUND':
    case 'TABLE_PARTITIONED':
    case 'UNAUTHENTICATED':
    case 'FORBIDDEN':
      return EXIT.usage;
    case 'NETWORK_ERROR':
    case 'SERVICE_UNAVAILABLE':
    case 'OUTCOME_UNKNOWN':
      return EXIT.unavailable;
    case 'INTERNAL_SERVER_ERROR':
    case 'GRAPHQL_PARSE_FAILED':
    case 'GRAPHQL_VALIDATION_FAILED':
      return EXIT.software;
    default:
      return EXIT.refused;
  }
}
