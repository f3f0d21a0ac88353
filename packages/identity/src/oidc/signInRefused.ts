import { IdentityError } from '../identityError';
import type { LoginFailure } from '../securityEvent';

/**
 * An OpenID Connect sign-in that tablelock turned away; `reason` says which kind, for the page
 * the browser is sent back to. Already recorded as a failed login when thrown.
 */
export class SignInRefused extends IdentityError {
  constructor(
    readonly reason: LoginFailure,
    message: string,
  ) {
    super('UNAUTHENTICATED', message, { reason });
  }
}
