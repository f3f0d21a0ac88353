import type { PrismaClient, Role } from '@tablelock/db';
import { IdentityError } from './identityError';
import { API_KEY_PREFIX, type Principal } from './principal';
import { parsePrincipalName } from './principalName';
import { hashSecretToken, newSecretToken } from './secretToken';
import { type SecurityAudit, withSecurityEvents } from './securityEvent';

export interface ApiKeyInfo {
  id: string;
  name: string;
  role: Role;
  createdBy: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const SELECT = {
  id: true,
  name: true,
  role: true,
  createdBy: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

/** Creates a key; the secret is returned this once and only its hash is stored. */
export async function createApiKey(
  prisma: PrismaClient,
  input: { name: string; role: Role },
  audit: SecurityAudit,
): Promise<{ apiKey: ApiKeyInfo; secret: string }> {
  const name = parsePrincipalName(input.name, 'API key name');
  const secret = newSecretToken('tlk_');
  const apiKey = await withSecurityEvents(prisma, audit.logger, async (tx, record) => {
    const [created] = await tx.apiKey.createManyAndReturn({
      data: [{ name, role: input.role, createdBy: audit.actor, keyHash: hashSecretToken(secret) }],
      skipDuplicates: true,
      select: SELECT,
    });
    if (!created) throw new IdentityError('BAD_USER_INPUT', `An API key named ${name} exists.`);
    await record({
      action: 'api_key_created',
      actor: audit.actor,
      subject: `${API_KEY_PREFIX}${name}`,
      ip: audit.ip,
      details: { role: created.role },
    });
    return created;
  });
  return { apiKey, secret };
}

export function listApiKeys(prisma: PrismaClient): Promise<ApiKeyInfo[]> {
  return prisma.apiKey.findMany({ select: SELECT, orderBy: { name: 'asc' } });
}

/** Revokes a key at once: the next request with it is unauthenticated. Revoking it again changes nothing. */
export async function revokeApiKey(
  prisma: PrismaClient,
  name: string,
  audit: SecurityAudit,
): Promise<ApiKeyInfo> {
  return withSecurityEvents(prisma, audit.logger, async (tx, record) => {
    const [revoked] = await tx.$queryRaw<{ id: string }[]>`
      UPDATE tablelock.api_key SET revoked_at = now()
      WHERE name = ${name} AND revoked_at IS NULL RETURNING id::text AS id`;
    const apiKey = await tx.apiKey.findUnique({ where: { name }, select: SELECT });
    if (!apiKey) throw new IdentityError('BAD_USER_INPUT', `No API key is named ${name}.`);
    if (revoked) {
      await record({
        action: 'api_key_revoked',
        actor: audit.actor,
        subject: `${API_KEY_PREFIX}${name}`,
        ip: audit.ip,
      });
    }
    return apiKey;
  });
}

/**
 * The API key behind a bearer secret, if it is not revoked. Records the use, at most once a
 * minute per key, so that a busy client does not write on every request.
 */
export async function findApiKeyPrincipal(
  prisma: PrismaClient,
  secret: string,
): Promise<Principal | null> {
  const [row] = await prisma.$queryRaw<{ id: string; name: string; role: Role; stale: boolean }[]>`
    SELECT id::text AS id, name, role::text AS role,
           last_used_at IS NULL OR last_used_at < now() - interval '1 minute' AS stale
    FROM tablelock.api_key
    WHERE key_hash = ${hashSecretToken(secret)} AND revoked_at IS NULL`;
  if (!row) return null;
  if (row.stale) {
    // A stamp a failover may lose, so its commit waits for no standby: without one attached
    // (REQUIRE_SYNC_REPLICA refuses changes then), reads with the key go on.
    await prisma.$transaction([
      prisma.$executeRaw`SET LOCAL synchronous_commit = local`,
      prisma.$executeRaw`UPDATE tablelock.api_key SET last_used_at = now() WHERE id = ${row.id}::uuid`,
    ]);
  }
  return {
    kind: 'apiKey',
    id: row.id,
    name: `${API_KEY_PREFIX}${row.name}`,
    role: row.role,
    groups: [],
    roleSource: 'local',
  };
}
