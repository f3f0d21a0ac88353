import { IdentityError, type Principal } from '@tablelock/identity';
import type { ApiContext } from '../../context';

/**
 * The caller of a field that FIELD_ACCESS opens to a role only: enforceFieldAccess let the
 * call through, so there is one.
 */
export function callerOf(context: ApiContext): Principal {
  if (!context.principal) throw new IdentityError('UNAUTHENTICATED', 'Log in or send an API key.');
  return context.principal;
}
