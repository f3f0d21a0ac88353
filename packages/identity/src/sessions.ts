import type { PrismaClient, Queryable } from '@tablelock/db';
import type { Principal } from './principal';
import { hashSecretToken, newSecretToken } from './secretToken';
import { type RequestOrigin, withSecurityEvents } from './securityEvent';

/** Starts a session for a user; returns the token for the cookie (the database keeps its hash). */
export async function createSession(
  db: Queryable,
  userId: string,
  ttlSeconds: number,
): Promise<string> {
  const token = newSecretToken('tls_');
  await db.$executeRaw`
    INSERT INTO tablelock.session (token_hash, user_id, expires_at)
    VALUES (${hashSecretToken(token)}, ${userId}::uuid, now() + make_interval(secs => ${ttlSeconds}))`;
  return token;
}

/** The user behind a session token, if the session is live (not revoked, not expired by the database clock, user enabled). */
export async function findSessionPrincipal(
  prisma: PrismaClient,
  token: string,
): Promise<Principal | null> {
  const [row] = await prisma.$queryRaw<
    { id: string; username: string; role: Principal['role']; groups: string[] }[]
  >`
    SELECT u.id::text AS id, u.username, u.role::text AS role, u.groups
    FROM tablelock.session AS s JOIN tablelock."user" AS u ON u.id = s.user_id
    WHERE s.token_hash = ${hashSecretToken(token)}
      AND s.revoked_at IS NULL AND s.expires_at > now() AND NOT u.disabled`;
  return row
    ? { kind: 'user', id: row.id, name: row.username, role: row.role, groups: row.groups }
    : null;
}

/** How long a live session has left, in milliseconds of the database clock; null if it has ended. */
export async function sessionTimeLeft(prisma: PrismaClient, token: string): Promise<number | null> {
  const [row] = await prisma.$queryRaw<{ ms: number }[]>`
    SELECT (extract(epoch FROM expires_at - now()) * 1000)::float8 AS ms
    FROM tablelock.session
    WHERE token_hash = ${hashSecretToken(token)} AND revoked_at IS NULL AND expires_at > now()`;
  return row ? row.ms : null;
}

/** Ends a session at once, unrecorded: the browser's previous session when it logs in anew. */
export async function revokeSession(prisma: PrismaClient, token: string): Promise<void> {
  await prisma.session.updateMany({
    where: { tokenHash: hashSecretToken(token), revokedAt: null },
    data: { revokedAt: new Date() },
  });
}

/**
 * Logs out: ends the session at once and records it. Returns the session's username, or null
 * when it was no live session (ended, expired, or never one); nothing is recorded then.
 */
export async function logOut(
  prisma: PrismaClient,
  token: string,
  origin: RequestOrigin,
): Promise<string | null> {
  return withSecurityEvents(prisma, origin.logger, async (tx, record) => {
    const [ended] = await tx.$queryRaw<{ username: string }[]>`
      WITH ended AS (
        UPDATE tablelock.session SET revoked_at = now()
        WHERE token_hash = ${hashSecretToken(token)} AND revoked_at IS NULL AND expires_at > now()
        RETURNING user_id)
      SELECT u.username FROM ended JOIN tablelock."user" AS u ON u.id = ended.user_id`;
    if (!ended) return null;
    await record({
      action: 'logout',
      actor: ended.username,
      subject: ended.username,
      ip: origin.ip,
    });
    return ended.username;
  });
}
