import type { PrismaClient, Role, RoleSource } from '@tablelock/db';
import { IdentityError } from './identityError';
import { hashPassword } from './passwordHash';
import { parsePassword, parsePrincipalName } from './principalName';
import { type SecurityAudit, type SecurityLogger, withSecurityEvents } from './securityEvent';

export interface UserInfo {
  id: string;
  username: string;
  role: Role;
  /** `oidc`: the role was mapped from the provider's claim at the last sign-in. */
  roleSource: RoleSource;
  /** The provider's groups at the last sign-in there. */
  groups: string[];
  /** May log in with a password even when password login is turned off. */
  breakGlass: boolean;
  disabled: boolean;
  createdAt: Date;
}

/** What an admin may change of a user; what is left out stays as it is. */
export interface UserChange {
  username: string;
  role?: Role | null;
  password?: string | null;
  disabled?: boolean | null;
}

export const USER_INFO = {
  id: true,
  username: true,
  role: true,
  roleSource: true,
  groups: true,
  breakGlass: true,
  disabled: true,
  createdAt: true,
} as const;

export async function createUser(
  prisma: PrismaClient,
  input: { username: string; password: string; role: Role; breakGlass?: boolean },
  audit: SecurityAudit,
): Promise<UserInfo> {
  const name = parsePrincipalName(input.username, 'username');
  const passwordHash = await hashPassword(parsePassword(input.password));
  return withSecurityEvents(prisma, audit.logger, async (tx, record) => {
    const [created] = await tx.user.createManyAndReturn({
      data: [{ username: name, passwordHash, role: input.role, breakGlass: input.breakGlass }],
      skipDuplicates: true,
      select: USER_INFO,
    });
    if (!created) throw new IdentityError('BAD_USER_INPUT', `A user named ${name} exists.`);
    await record({
      action: 'user_created',
      actor: audit.actor,
      subject: name,
      ip: audit.ip,
      details: { role: created.role },
    });
    return created;
  });
}

/**
 * Changes a user's role, password or disabled flag; disabling or a new password ends its
 * sessions. Each actual change is a security event (setting the role it has is none).
 */
export async function updateUser(
  prisma: PrismaClient,
  input: UserChange,
  audit: SecurityAudit,
): Promise<UserInfo> {
  const passwordHash =
    input.password == null ? undefined : await hashPassword(parsePassword(input.password));
  return withSecurityEvents(prisma, audit.logger, async (tx, record) => {
    // Locked, so that the role recorded as the previous one is the one replaced.
    const [user] = await tx.$queryRaw<{ id: string; role: Role; disabled: boolean }[]>`
      SELECT id::text AS id, role::text AS role, disabled FROM tablelock."user"
      WHERE username = ${input.username} FOR UPDATE`;
    if (!user) throw new IdentityError('BAD_USER_INPUT', `No user is named ${input.username}.`);
    if (input.disabled || passwordHash) {
      await tx.session.updateMany({
        where: { userId: user.id, revokedAt: null },
        data: { revokedAt: new Date() },
      });
    }
    const updated = await tx.user.update({
      where: { id: user.id },
      data: {
        // An admin's role holds until the user's next sign-in through the provider, if any.
        ...(input.role ? { role: input.role, roleSource: 'local' as const } : {}),
        ...(input.disabled == null ? {} : { disabled: input.disabled }),
        ...(passwordHash ? { passwordHash } : {}),
      },
      select: USER_INFO,
    });
    const event = { actor: audit.actor, subject: updated.username, ip: audit.ip };
    if (input.role && input.role !== user.role) {
      await record({
        ...event,
        action: 'role_changed',
        details: { role: input.role, previousRole: user.role },
      });
    }
    if (passwordHash) await record({ ...event, action: 'password_changed' });
    if (input.disabled != null && input.disabled !== user.disabled) {
      await record({ ...event, action: input.disabled ? 'user_disabled' : 'user_enabled' });
    }
    return updated;
  });
}

export function listUsers(prisma: PrismaClient): Promise<UserInfo[]> {
  return prisma.user.findMany({ select: USER_INFO, orderBy: { username: 'asc' } });
}

/** Whether a user of that name exists and is enabled (an admin key may act for it). */
export async function isActiveUser(prisma: PrismaClient, name: string): Promise<boolean> {
  return (await prisma.user.count({ where: { username: name, disabled: false } })) > 0;
}

export const DEMO_PASSWORD = 'tablelock-demo';
const DEMO_USERS: { username: string; role: Role }[] = [
  { username: 'alice', role: 'editor' },
  { username: 'bob', role: 'editor' },
  { username: 'carol', role: 'viewer' },
  { username: 'admin', role: 'admin' },
];

/**
 * The demo users (embedded mode only), all with DEMO_PASSWORD; existing ones are left alone.
 * Their creation is recorded as the `system`'s.
 */
export async function ensureDemoUsers(
  prisma: PrismaClient,
  logger: SecurityLogger,
): Promise<string[]> {
  const existing = new Set((await listUsers(prisma)).map((user) => user.username));
  const missing = DEMO_USERS.filter((user) => !existing.has(user.username));
  const audit = { actor: 'system', ip: null, logger };
  for (const user of missing) await createUser(prisma, { ...user, password: DEMO_PASSWORD }, audit);
  return missing.map((user) => user.username);
}
