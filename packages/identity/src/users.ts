import type { PrismaClient, Role } from '@tablelock/db';
import { IdentityError } from './identityError';
import { hashPassword } from './passwordHash';
import { parsePassword, parsePrincipalName } from './principalName';

export interface UserInfo {
  id: string;
  username: string;
  role: Role;
  disabled: boolean;
  createdAt: Date;
}

const SELECT = { id: true, username: true, role: true, disabled: true, createdAt: true } as const;

export async function createUser(
  prisma: PrismaClient,
  input: { username: string; password: string; role: Role },
): Promise<UserInfo> {
  const name = parsePrincipalName(input.username, 'username');
  const passwordHash = await hashPassword(parsePassword(input.password));
  const [created] = await prisma.user.createManyAndReturn({
    data: [{ username: name, passwordHash, role: input.role }],
    skipDuplicates: true,
    select: SELECT,
  });
  if (!created) throw new IdentityError('BAD_USER_INPUT', `A user named ${name} exists.`);
  return created;
}

/** Changes a user's role, password or disabled flag; disabling or a new password ends its sessions. */
export async function updateUser(
  prisma: PrismaClient,
  input: {
    username: string;
    role?: Role | null;
    password?: string | null;
    disabled?: boolean | null;
  },
): Promise<UserInfo> {
  const passwordHash =
    input.password == null ? undefined : await hashPassword(parsePassword(input.password));
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { username: input.username } });
    if (!user) throw new IdentityError('BAD_USER_INPUT', `No user is named ${input.username}.`);
    if (input.disabled || passwordHash) {
      await tx.session.updateMany({
        where: { userId: user.id, revokedAt: null },
        data: { revokedAt: new Date() },
      });
    }
    return tx.user.update({
      where: { id: user.id },
      data: {
        ...(input.role ? { role: input.role } : {}),
        ...(input.disabled == null ? {} : { disabled: input.disabled }),
        ...(passwordHash ? { passwordHash } : {}),
      },
      select: SELECT,
    });
  });
}

export function listUsers(prisma: PrismaClient): Promise<UserInfo[]> {
  return prisma.user.findMany({ select: SELECT, orderBy: { username: 'asc' } });
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

/** The demo users (embedded mode only), all with DEMO_PASSWORD; existing ones are left alone. */
export async function ensureDemoUsers(prisma: PrismaClient): Promise<string[]> {
  const existing = new Set((await listUsers(prisma)).map((user) => user.username));
  const missing = DEMO_USERS.filter((user) => !existing.has(user.username));
  for (const user of missing) await createUser(prisma, { ...user, password: DEMO_PASSWORD });
  return missing.map((user) => user.username);
}
