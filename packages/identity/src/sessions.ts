import type { PrismaClient } from '@tablelock/db';
import type { Principal } from './principal';
import { hashSecretToken, newSecretToken } from './secretToken';

/** Starts a session for a user; returns the token for the cookie (the database keeps its hash). */
export async function createSession(
  prisma: PrismaClient,
  userId: string,
  ttlSeconds: number,
): Promise<string> {
  const token = newSecretToken('tls_');
  await prisma.$executeRaw`
    INSERT INTO tablelock.session (token_hash, user_id, expires_at)
    VALUES (${hashSecretToken(token)}, ${userId}::uuid, now() + make_interval(secs => ${ttlSeconds}))`;
  return token;
}

/** The user behind a session token, if the session is live (not revoked, not expired by the database clock, user enabled). */
export async function findSessionPrincipal(
  prisma: PrismaClient,
  token: string,
): Promise<Principal | null> {
  const [row] = await prisma.$queryRaw<{ id: string; username: string; role: Principal['role'] }[]>`
    SELECT u.id::text AS id, u.username, u.role::text AS role
    FROM tablelock.session AS s JOIN tablelock."user" AS u ON u.id = s.user_id
    WHERE s.token_hash = ${hashSecretToken(token)}
      AND s.revoked_at IS NULL AND s.expires_at > now() AND NOT u.disabled`;
  return row ? { kind: 'user', id: row.id, name: row.username, role: row.role } : null;
}

/** Ends a session at once (logout). */
export async function revokeSession(prisma: PrismaClient, token: string): Promise<void> {
  await prisma.session.updateMany({
    where: { tokenHash: hashSecretToken(token), revokedAt: null },
    data: { revokedAt: new Date() },
  });
}
