import type { PrismaClient, Role } from '@tablelock/db';
import type { Principal } from '../principal';
import { parsePrincipalName } from '../principalName';
import {
  type LoginFailure,
  type SecurityEventDetails,
  type SecurityLogger,
  withSecurityEvents,
} from '../securityEvent';
import { createSession } from '../sessions';
import { type RoleMap, roleForGroups } from './roleMap';
import { SignInRefused } from './signInRefused';

/** Who the OpenID provider says signed in, from the ID token (and UserInfo) it issued. */
export interface OidcAccount {
  issuer: string;
  subject: string;
  /** The username claim's value as sent (`preferred_username`, `email`, ...). */
  username: unknown;
  /** The role claim's values. */
  groups: string[];
}

export interface OidcSignInOptions {
  roleMap: RoleMap;
  /** The browser's address, for the security audit. */
  ip: string;
  sessionTtlSeconds: number;
  logger: SecurityLogger;
}

/** The actor of what the provider's answer changes: a user created at sign-in, a role mapped. */
const PROVIDER = 'oidc';

type Outcome =
  | { signedIn: { principal: Principal; token: string } }
  | { refused: { reason: LoginFailure; message: string; subject: string } };

const refused = (reason: LoginFailure, message: string, subject: string): Outcome => ({
  refused: { reason, message, subject },
});

/**
 * Signs in a user the provider vouched for: found by issuer and subject (never by name, so no
 * provider account can take over a tablelock user of the same name), created at the first
 * sign-in, its role and groups set from the provider's at every sign-in. A new user, a changed
 * role and the sign-in are security events, written with the session; a refusal is a failed
 * login and a SignInRefused.
 */
export async function signInWithOidc(
  prisma: PrismaClient,
  account: OidcAccount,
  options: OidcSignInOptions,
): Promise<{ principal: Principal; token: string }> {
  const role = roleForGroups(options.roleMap, account.groups);
  const fallbackSubject = typeof account.username === 'string' ? account.username : account.subject;
  const outcome: Outcome =
    role === null
      ? refused(
          'no_role',
          'None of your groups may use tablelock; ask an administrator for access.',
          fallbackSubject,
        )
      : await withSecurityEvents(prisma, options.logger, async (tx, record): Promise<Outcome> => {
          const [found] = await tx.$queryRaw<
            { id: string; username: string; role: Role; disabled: boolean }[]
          >`
            SELECT id::text AS id, username, role::text AS role, disabled FROM tablelock."user"
            WHERE oidc_issuer = ${account.issuer} AND oidc_subject = ${account.subject}
            FOR UPDATE`;
          const details: SecurityEventDetails = { signInMethod: 'oidc', groups: account.groups };
          let user = found;
          if (!user) {
            const name = usernameOf(account.username);
            if (name === null) {
              return refused(
                'no_username',
                'Your company account has no user name tablelock can use; ask an administrator.',
                fallbackSubject,
              );
            }
            const [created] = await tx.user.createManyAndReturn({
              data: [
                {
                  username: name,
                  role,
                  roleSource: 'oidc',
                  oidcIssuer: account.issuer,
                  oidcSubject: account.subject,
                  groups: account.groups,
                },
              ],
              skipDuplicates: true,
              select: { id: true, username: true, role: true, disabled: true },
            });
            if (!created) {
              return refused(
                'username_taken',
                `Another tablelock user is named ${name}; ask an administrator.`,
                name,
              );
            }
            user = created;
            await record({
              action: 'user_created',
              actor: PROVIDER,
              subject: name,
              ip: options.ip,
              details: { ...details, role },
            });
          }
          if (user.disabled) {
            return refused(
              'user_disabled',
              'Your tablelock user is disabled; ask an administrator.',
              user.username,
            );
          }
          await tx.user.update({
            where: { id: user.id },
            data: { role, roleSource: 'oidc', groups: account.groups },
          });
          if (user.role !== role) {
            await record({
              action: 'role_changed',
              actor: PROVIDER,
              subject: user.username,
              ip: options.ip,
              details: { ...details, role, previousRole: user.role },
            });
          }
          const token = await createSession(tx, user.id, options.sessionTtlSeconds);
          await record({
            action: 'login',
            actor: user.username,
            subject: user.username,
            ip: options.ip,
            details,
          });
          return {
            signedIn: {
              principal: {
                kind: 'user',
                id: user.id,
                name: user.username,
                role,
                groups: account.groups,
                roleSource: 'oidc',
              },
              token,
            },
          };
        });
  if ('signedIn' in outcome) return outcome.signedIn;
  const { reason, message, subject } = outcome.refused;
  await recordRefusedSignIn(prisma, options, { reason, subject, groups: account.groups });
  throw new SignInRefused(reason, message);
}

/** A failed OpenID Connect sign-in, for the security audit: who it was, if known, and why. */
export function recordRefusedSignIn(
  prisma: PrismaClient,
  origin: { ip: string; logger: SecurityLogger },
  failure: { reason: LoginFailure; subject: string; groups?: string[]; detail?: string },
): Promise<void> {
  return withSecurityEvents(prisma, origin.logger, (_tx, record) =>
    record({
      action: 'login_failed',
      actor: null,
      subject: failure.subject,
      ip: origin.ip,
      details: {
        loginFailure: failure.reason,
        signInMethod: 'oidc',
        ...(failure.groups ? { groups: failure.groups } : {}),
        ...(failure.detail ? { failureDetail: failure.detail } : {}),
      },
    }),
  );
}

/** The username claim as a tablelock name (lower-cased), or null when it cannot be one. */
function usernameOf(claim: unknown): string | null {
  if (typeof claim !== 'string') return null;
  try {
    return parsePrincipalName(claim.trim().toLowerCase(), 'username');
  } catch {
    return null;
  }
}
