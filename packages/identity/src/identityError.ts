import { DomainError } from '@tablelock/errors';

/** Why a caller was turned away. */
export type IdentityErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'BAD_USER_INPUT'
  | 'TOO_MANY_REQUESTS';

export class IdentityError extends DomainError<IdentityErrorCode> {}
