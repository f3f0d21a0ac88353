/** Why a caller was turned away. */
export type IdentityErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'BAD_USER_INPUT'
  | 'TOO_MANY_REQUESTS';

export class IdentityError extends Error {
  override readonly name = 'IdentityError';

  constructor(
    readonly code: IdentityErrorCode,
    message: string,
    /** Seconds until a throttled caller may try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
