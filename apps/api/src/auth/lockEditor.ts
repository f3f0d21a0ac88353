import { IdentityError, isActiveUser, type Principal } from '@tablelock/identity';
import type { ApiContext } from '../context';

/**
 * Whose name a lock operation records. It is the caller's: an `editor` input naming anyone
 * else is FORBIDDEN, except for an admin API key acting for an existing, enabled user (a batch
 * job working on a person's behalf).
 */
export async function lockEditor(
  context: ApiContext,
  caller: Principal,
  requested: string | null | undefined,
): Promise<string> {
  if (requested == null || requested === caller.name) return caller.name;
  if (requested.trim() === '')
    throw new IdentityError('BAD_USER_INPUT', 'editor must not be blank.');
  const actsForUser =
    caller.kind === 'apiKey' &&
    caller.role === 'admin' &&
    (await isActiveUser(context.prisma, requested));
  if (!actsForUser) {
    throw new IdentityError(
      'FORBIDDEN',
      `You are ${caller.name}; editor ${JSON.stringify(requested)} must be you (only an admin API key may act for a user).`,
    );
  }
  context.logger.info(
    { caller: caller.name, actingFor: requested },
    'admin API key acts for a user',
  );
  return requested;
}
