import type { Role } from '@tablelock/db';
import { IdentityError, type Principal, roleAtLeast } from '@tablelock/identity';
import type { ApiContext } from '../context';

/** The caller, if it has at least `role`; otherwise UNAUTHENTICATED or FORBIDDEN. */
export function requireRole(context: ApiContext, role: Role): Principal {
  const { principal } = context;
  if (!principal) throw new IdentityError('UNAUTHENTICATED', 'Log in or send an API key.');
  if (!roleAtLeast(principal.role, role)) {
    throw new IdentityError(
      'FORBIDDEN',
      `This needs the ${role} role; ${principal.name} is a ${principal.role}.`,
    );
  }
  return principal;
}
