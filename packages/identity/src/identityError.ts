import { DomainError } from '@tablelock/errors';

/** Why a caller was turned away. */
export type IdentityErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'BAD_USER_INPUT'
  | 'TOO_MANY_REQUESTS'
  /** A password login while PASSWORD_LOGIN=false, by anyone but a break-glass admin. */
  | 'PASSWORD_LOGIN_DISABLED';

export class IdentityError extends DomainError<IdentityErrorCode> {}
