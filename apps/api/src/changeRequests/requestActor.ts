import type { PrismaClient } from '@tablelock/db';
import type { Principal } from '@tablelock/identity';
import type { RequestActor } from '@tablelock/master-data';

/**
 * The caller as a change request's rules see it. An API key stands for the admin who created
 * it, so nobody approves through a key what they submitted themselves, or the reverse.
 */
export async function requestActorOf(
  prisma: PrismaClient,
  principal: Principal,
): Promise<RequestActor> {
  const creator =
    principal.kind === 'apiKey'
      ? (
          await prisma.apiKey.findUnique({
            where: { id: principal.id },
            select: { createdBy: true },
          })
        )?.createdBy
      : null;
  return {
    name: principal.name,
    role: principal.role,
    groups: principal.groups,
    standsFor: creator ? [creator] : [],
  };
}
