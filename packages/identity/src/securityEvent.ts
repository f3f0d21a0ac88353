import {
  type PrismaClient,
  Role,
  type SecurityAction,
  type TransactionClient,
} from '@tablelock/db';
import { z } from 'zod';

export const LOGIN_FAILURES = [
  'unknown_user',
  'wrong_password',
  'user_disabled',
  /** A password login while PASSWORD_LOGIN=false, by anyone but a break-glass admin. */
  'password_login_disabled',
  /** The OpenID Connect sign-in failed a check: state, nonce, the ID token, the code. */
  'sign_in_refused',
  /** The provider's user name belongs to another user of tablelock. */
  'username_taken',
  /** The provider sent no user name claim that can be a tablelock name. */
  'no_username',
  /** None of the user's groups maps to a role, and there is no `*` rule. */
  'no_role',
] as const;
export type LoginFailure = (typeof LOGIN_FAILURES)[number];

/** What a security event tells besides who did what to whom. Never a password or a secret. */
export const securityEventDetails = z.object({
  /** The role given: to a new user or key, or by a role change. */
  role: z.enum(Role).optional(),
  /** A role change's role before. */
  previousRole: z.enum(Role).optional(),
  /** Why a login failed (only admins read this; the caller is told nothing). */
  loginFailure: z.enum(LOGIN_FAILURES).optional(),
  /** How a login was made, or tried. */
  signInMethod: z.enum(['password', 'oidc']).optional(),
  /** The OpenID provider's groups at a sign-in there, and so behind a role it gave. */
  groups: z.array(z.string()).optional(),
  /** What the check that refused an OpenID Connect sign-in found, in a few words. */
  failureDetail: z.string().optional(),
  /** An idle limit change: the limit set, in seconds (null: the table follows the global one). */
  idleLimitSeconds: z.number().int().nullable().optional(),
  /** An idle limit change: the limit before (null: the table followed the global one). */
  previousIdleLimitSeconds: z.number().int().nullable().optional(),
  /** A policy or rule change: the settings given, by name. */
  changes: z.record(z.string(), z.json()).optional(),
});
export type SecurityEventDetails = z.infer<typeof securityEventDetails>;

export interface SecurityEventInput {
  action: SecurityAction;
  /** A username, `key:<name>`, `cli` or `system`; null when nobody had authenticated. */
  actor: string | null;
  /** A username (for a failed login, the name tried) or `key:<name>`. */
  subject: string;
  ip: string | null;
  details?: SecurityEventDetails;
}

/** The part of a pino logger that security events use. */
export interface SecurityLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** Where a request comes from, and where its security events are logged. */
export interface RequestOrigin {
  /** The client's address; null from the command line. */
  ip: string | null;
  logger: SecurityLogger;
}

/** Who makes a change to users or API keys, and from where. */
export interface SecurityAudit extends RequestOrigin {
  /** A username, `key:<name>`, `cli` or `system`. */
  actor: string;
}

type RecordSecurityEvent = (event: SecurityEventInput) => Promise<void>;

/**
 * Runs `change` in one transaction with the security events it records, so that the events
 * exist exactly when the change does; logs them once the transaction has committed.
 */
export async function withSecurityEvents<T>(
  prisma: PrismaClient,
  logger: SecurityLogger,
  change: (tx: TransactionClient, record: RecordSecurityEvent) => Promise<T>,
): Promise<T> {
  const recorded: SecurityEventInput[] = [];
  const result = await prisma.$transaction((tx) =>
    change(tx, async (event) => {
      await tx.securityEvent.create({ data: event, select: { id: true } });
      recorded.push(event);
    }),
  );
  for (const event of recorded) logSecurityEvent(logger, event);
  return result;
}

// A failed login is a warning: several in a row mean someone may be guessing.
function logSecurityEvent(logger: SecurityLogger, { details, ...event }: SecurityEventInput) {
  const fields = { ...event, ...details };
  if (event.action === 'login_failed') logger.warn(fields, 'security event');
  else logger.info(fields, 'security event');
}
