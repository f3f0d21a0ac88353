import type { EditBlockKind, ErrorCode } from './generated/schemaEnums';

/**
 * What a TablelockError can say: a code of the API's ErrorCode list (its SDL), or NETWORK_ERROR
 * when no GraphQL answer came back (after the retries, for failures that pass).
 */
export type TablelockErrorCode = ErrorCode | 'NETWORK_ERROR';

/** The `extensions` of an API error, as sent. */
export interface TablelockErrorExtensions {
  readonly code?: string;
  /** LOCK_CONFLICT, LOCK_WAIT_TIMEOUT: the tables in the way and who edits them. */
  readonly blockers?: readonly { table: string; editor: string | null }[];
  /** LOCK_CONFLICT: why the table cannot be edited now. */
  readonly editBlock?: EditBlockKind;
  /** SERVICE_UNAVAILABLE, TOO_MANY_REQUESTS: when to try again. */
  readonly retryAfterSeconds?: number;
  /** The request's id in the API's log. */
  readonly requestId?: string;
  readonly [key: string]: unknown;
}

/** A refusal by the API (or its absence), with the code to branch on. */
export class TablelockError extends Error {
  override readonly name = 'TablelockError';
  readonly code: TablelockErrorCode;
  readonly extensions: TablelockErrorExtensions;
  /** Where in the answer the error arose (a field that failed), when the API says. */
  readonly path: readonly (string | number)[] | undefined;

  constructor(
    code: TablelockErrorCode,
    message: string,
    details: {
      extensions?: TablelockErrorExtensions;
      path?: readonly (string | number)[];
      cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? {} : { cause: details.cause });
    this.code = code;
    this.extensions = details.extensions ?? { code };
    this.path = details.path;
  }
}

/** Whether `error` is a TablelockError with `code`. */
export function isTablelockError(
  error: unknown,
  code?: TablelockErrorCode,
): error is TablelockError {
  return error instanceof TablelockError && (code === undefined || error.code === code);
}
