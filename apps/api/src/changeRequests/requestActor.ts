import type { PrismaClient } from '@tablelock/db';
import { API_KEY_PREFIX, type Principal } from '@tablelock/identity';
import type { RequestActor } from '@tablelock/master-data';

/** Keys made by keys: deeper chains than this stand for nobody. */
const MAX_KEYS_DEEP = 10;

/**
 * The caller as a change request's rules see it. An API key stands for whoever made it: the
 * admin, or the key that made it and so on up to a person. So nobody approves through a key
 * what they submitted themselves, or the reverse. A key no person made (the command line's,
 * recorded as `cli`) stands for nobody.
 */
export async function requestActorOf(
  prisma: PrismaClient,
  principal: Principal,
): Promise<RequestActor> {
  const actor = { name: principal.name, role: principal.role, groups: principal.groups };
  if (principal.kind !== 'apiKey') return { ...actor, standsFor: [], standsForNobody: false };
  const makers = await prisma.$queryRaw<{ createdBy: string | null; person: boolean }[]>`
    WITH RECURSIVE made_by AS (
      SELECT created_by, 1 AS depth FROM tablelock.api_key WHERE id = ${principal.id}::uuid
      UNION ALL
      SELECT k.created_by, m.depth + 1
      FROM made_by AS m JOIN tablelock.api_key AS k ON m.created_by = ${API_KEY_PREFIX} || k.name
      WHERE m.depth < ${MAX_KEYS_DEEP}
    )
    SELECT m.created_by AS "createdBy",
           EXISTS (SELECT 1 FROM tablelock."user" AS u WHERE u.username = m.created_by) AS person
    FROM made_by AS m ORDER BY m.depth`;
  return {
    ...actor,
    standsFor: makers.flatMap(({ createdBy }) => (createdBy ? [createdBy] : [])),
    standsForNobody: !makers.some(({ person }) => person),
  };
}
